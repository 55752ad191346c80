// The match's command line (see match_args.hpp).
#include "tools/match/match_args.hpp"

#include <algorithm>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "protocol/cli/command_line.hpp"
#include "tools/match/engine_spec.hpp"
#include "tools/match/random_openings.hpp"

namespace reversi::match {

using namespace reversi::data;

namespace {

static_assert(kSprtMinPairs == 16, "the --sprt help text below says 16");

const cli::ProgramSpec kSpec{
    "reversi-match",
    "reversi-match --engine KEY=VALUE... --engine KEY=VALUE... [--engine ...] [options]",
    "Plays a match between two engines (or a tournament of more) and reports W/D/L, average disc margin, Elo with a "
    "95% interval\n"
    "(pentanomial over colour pairs), LOS and an optional SPRT. Each opening is played twice with colours\n"
    "swapped (game 2k: first engine black, game 2k+1: second engine black). The runner checks every move\n"
    "on its own board, plays forced passes itself and scores by the WOF rule. An illegal move, a crash, a\n"
    "hang or a time forfeit loses the game (reason recorded); the engine is restarted.\n"
    "With more than two engines: a round-robin (every pair) or a gauntlet (the first engine against each\n"
    "other), each pairing playing --games games; per-pairing summaries and standings (points, score,\n"
    "Bradley-Terry Elo relative to the field). Pairings play concurrently.\n"
    "Engine keys: name=NAME  cmd=\"PROGRAM ARGS\" | tcp=HOST:PORT  proto=uci|nboard  option.NAME=VALUE\n"
    "  depth=N | nodes=N | movetime=MS | tc=SECONDS[+INCREMENT]  timemargin=MS (default 100)\n"
    "  stderr=FILE (the engine's stderr; default discarded)  dir=DIR (working directory)\n"
    "  ponder=true (UCI: the engine ponders on the opponent's time; go ponder, ponderhit or stop as a GUI)\n"
    "  transcript=FILE (every line sent to (> ) and read from (< ) the engine, appended)",
    {{"engine", true, "KEY=VALUE ... one engine (give it two or more times)"},
     {"each", true, "KEY=VALUE ... keys for every engine"},
     {"tournament", true, "round-robin (default) or gauntlet: the pairings with more than two engines"},
     {"games", true, "games per pairing (default 2; an odd number leaves the last pair incomplete)"},
     {"concurrency", true, "games at once (default: cores / engine threads, twice the threads with ponder=true)"},
     {"openings", true, "file of openings: transcripts (f5d6c3...), board strings, XOT lists"},
     {"opening-order", true, "sequential or random (default sequential)"},
     {"opening-offset", true,
      "N: skip the first N openings of that order (parts of one long match, each with its own limits, play "
      "the openings of the whole)"},
     {"random-openings", true, "PLIES: random legal openings of this many plies instead of a file"},
     {"balance", true, "K: keep random openings whose shallow search is within +-K discs (default 64)"},
     {"balance-depth", true, "depth of that search (default 4; 0 keeps every opening)"},
     {"seed", true, "seed for random openings and the random order (default 1)"},
     {"variant", true, "8x8 (default), 6x6, 6x6-parallel, 4x4, diamond, diamond-parallel"},
     {"out", true, "PREFIX of the files written: PREFIX.ggf, PREFIX.log, PREFIX.json (default match)"},
     {"resume", false, "continue the match recorded in PREFIX.log"},
     {"overwrite", false, "start over even when PREFIX.log exists"},
     {"sprt", true,
      "ELO0,ELO1,ALPHA,BETA: stop when the SPRT decides (two engines only; no decision before 16 colour pairs)"},
     {"timeout", true, "MS: a depth/nodes search without reply by then hangs (default 60000)"},
     {"handshake-timeout", true, "MS: for the TCP connection, uciok, readyok, pong (default 10000)"},
     {"json", false, "print the JSON summary on stdout instead of the text"},
     {"progress", true, "auto (default: when stderr is a terminal), on or off"},
     {"log-level", true, "trace, debug, info, warn, error or off (default warn)"},
     {"queue", true,
      "redis://HOST:PORT/NAME: coordinate a distributed match; workers (reversi-match worker) play it "
      "(docs/scale.md); a Redis password from REVERSI_REDIS_PASSWORD"}},
    "Distributed: reversi-match ... --queue redis://HOST:PORT/NAME puts the colour pairs on a Redis Stream and\n"
    "records the results as they arrive; any number of `reversi-match worker --queue redis://HOST:PORT/NAME`\n"
    "(see reversi-match worker --help) play them.\n"
    "Files: PREFIX.ggf has one game per line (moves with eval/time where given; GN[i] is the game number,\n"
    "C[...] the forfeit reason); PREFIX.log has one result per line and is what --resume reads.\n"
    "Example: reversi-match --engine name=d6 cmd=build/release/protocol/reversi-engine depth=6 \\\n"
    "           --engine name=d4 cmd=build/release/protocol/reversi-engine depth=4 \\\n"
    "           --openings ../shared/data/openings/xot/openingssmall.txt --games 200 --out d6-vs-d4"};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

// The command line with its --engine and --each groups taken out: each group is every token after the
// flag up to the next --option.
struct EngineGroups {
    std::vector<std::vector<std::string>> engines;
    std::vector<std::string> each;
    std::vector<std::string> rest;  // the program name and the other arguments, for cli::parse_command_line
};
EngineGroups split_engine_groups(const std::vector<std::string>& argv) {
    EngineGroups groups;
    groups.rest = {argv.empty() ? std::string("reversi-match") : argv[0]};
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg == "--engine" || arg == "--each") {
            std::vector<std::string> tokens;
            while (i + 1 < argv.size() && argv[i + 1].rfind("--", 0) != 0) tokens.push_back(argv[++i]);
            if (arg == "--engine")
                groups.engines.push_back(tokens);
            else
                groups.each.insert(groups.each.end(), tokens.begin(), tokens.end());
        } else {
            groups.rest.push_back(arg);
        }
    }
    return groups;
}

// The engines of the groups into config.engines, equal names numbered (1-based: "d4-1", "d4-2");
// appends each engine's part of the match's fingerprint.
Expected<bool> add_engines(const EngineGroups& groups, MatchConfig& config, std::string& fingerprint) {
    for (std::size_t e = 0; e < groups.engines.size(); ++e) {
        auto spec = parse_engine_spec(groups.each, groups.engines[e], static_cast<int>(e));
        if (!spec) return spec.error();
        config.engines.push_back(*spec);
        fingerprint += '[';
        fingerprint += engine_fingerprint(*spec);
        fingerprint += ']';
    }
    std::vector<std::string> given;
    for (const auto& e : config.engines) given.push_back(e.name);
    for (std::size_t e = 0; e < given.size(); ++e) {
        if (std::count(given.begin(), given.end(), given[e]) > 1) {
            config.engines[e].name += '-';
            config.engines[e].name += std::to_string(e + 1);
        }
    }
    for (std::size_t e = 0; e < config.engines.size(); ++e) {
        for (std::size_t f = 0; f < e; ++f) {
            if (config.engines[e].name == config.engines[f].name)
                return make_error("two engines named " + config.engines[e].name);
        }
    }
    return true;
}

// The openings of every pairing into config.openings (random ones, a file's, or the start position),
// in the order asked for, after the offset; appends their part of the fingerprint.
Expected<bool> choose_openings(const cli::ParsedArgs& args, long long seed, MatchConfig& config,
                               std::string& fingerprint) {
    const int pairs = (config.games + 1) / 2;  // colour pairs per pairing: every pairing uses the same openings
    if (args.has("openings") && args.has("random-openings"))
        return make_error("give --openings or --random-openings, not both");
    if (args.has("random-openings")) {
        RandomOpeningSpec rs;
        auto plies = args.get_int("random-openings", 8, 0, 60);
        auto balance = args.get_int("balance", 64, 0, 64);
        auto depth = args.get_int("balance-depth", 4, 0, 20);
        for (const auto* v : {&plies, &balance, &depth}) {
            if (!*v) return v->error();
        }
        rs.plies = static_cast<int>(*plies);
        rs.balance = static_cast<int>(*balance);
        rs.search_depth = static_cast<int>(*depth);
        rs.seed = static_cast<std::uint64_t>(seed);
        auto ops = random_openings(rs, pairs, config.variant);
        if (!ops) return ops.error();
        config.openings = std::move(*ops);
        fingerprint += " random=" + std::to_string(rs.plies) + "/" + std::to_string(rs.balance) + "/" +
                       std::to_string(rs.search_depth) + "/" + std::to_string(rs.seed);
    } else if (args.has("openings")) {
        auto ops = read_openings(args.get("openings", ""), config.variant);
        if (!ops) return ops.error();
        config.openings = std::move(*ops);
        fingerprint += " openings=" + args.get("openings", "") + "#" + std::to_string(config.openings.size());
    } else {
        Opening start;
        start.start = start_position(config.variant);
        start.text = "start";
        config.openings.push_back(start);
        fingerprint += " openings=start";
    }
    const std::string order = args.get("opening-order", "sequential");
    if (order == "random") {
        std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
        std::shuffle(config.openings.begin(), config.openings.end(), rng);
        fingerprint += " order=random/" + std::to_string(seed);
    } else if (order != "sequential") {
        return make_error("--opening-order " + order + ": expected sequential or random");
    }
    auto offset = args.get_int("opening-offset", 0, 0, 1LL << 30);
    if (!offset) return offset.error();
    if (*offset > 0) {
        if (static_cast<std::size_t>(*offset) >= config.openings.size())
            return make_error("--opening-offset " + std::to_string(*offset) + ": there are only " +
                              std::to_string(config.openings.size()) + " openings");
        config.openings.erase(config.openings.begin(), config.openings.begin() + static_cast<std::ptrdiff_t>(*offset));
        fingerprint += " offset=" + std::to_string(*offset);
    }
    return true;
}

// --sprt ELO0,ELO1,ALPHA,BETA (two engines only).
Expected<SprtSpec> parse_sprt(const std::string& text, std::size_t engines) {
    if (engines != 2) return make_error("--sprt needs exactly two engines (a tournament has no single test)");
    const auto parts = split(text, ',');
    if (parts.size() != 4) return make_error("--sprt expects ELO0,ELO1,ALPHA,BETA");
    double v[4];
    for (std::size_t k = 0; k < 4; ++k) {
        char* end = nullptr;
        v[k] = std::strtod(parts[k].c_str(), &end);
        if (end == parts[k].c_str() || *end != '\0') return make_error("--sprt: bad number '" + parts[k] + "'");
    }
    const SprtSpec s{v[0], v[1], v[2], v[3]};
    if (!(s.elo1 > s.elo0) || !(s.alpha > 0 && s.alpha < 1) || !(s.beta > 0 && s.beta < 1)) {
        return make_error("--sprt: need ELO0 < ELO1 and 0 < ALPHA, BETA < 1");
    }
    return s;
}

// Games at once: --concurrency, else the cores over the engines' threads (twice those with a pondering
// engine, which computes during its opponent's move).
Expected<long long> concurrency_option(const cli::ParsedArgs& args, const MatchConfig& config) {
    int threads = 1;
    bool ponder = false;
    for (const auto& e : config.engines) {
        threads = std::max(threads, e.threads);
        ponder = ponder || e.ponder;
    }
    if (ponder) threads *= 2;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return args.get_int("concurrency", std::max(1, cores / threads), 1, 1024);
}

// The games: --tournament, --games, --seed, the timeouts, --concurrency, --variant, the openings, --sprt.
Expected<bool> read_schedule(const cli::ParsedArgs& args, MatchConfig& config, std::string& fingerprint) {
    const auto kind = parse_tournament_kind(args.get("tournament", "round-robin"));
    if (!kind) return make_error("--tournament " + args.get("tournament", "") + ": expected round-robin or gauntlet");
    config.tournament = *kind;
    if (config.engines.size() > 2) fingerprint += std::string(" tournament=") + tournament_kind_name(*kind);

    auto games = args.get_int("games", 2, 1, 10000000);
    auto seed = args.get_int("seed", 1, 0, (1LL << 62));
    auto timeout = args.get_int("timeout", 60000, 1, 86400000);
    auto handshake = args.get_int("handshake-timeout", 10000, 1, 3600000);
    for (const auto* v : {&games, &seed, &timeout, &handshake}) {
        if (!*v) return v->error();
    }
    config.games = static_cast<int>(*games);
    config.timeouts.hang = Millis(*timeout);
    config.timeouts.handshake = Millis(*handshake);
    auto concurrency = concurrency_option(args, config);
    if (!concurrency) return concurrency.error();
    config.concurrency = static_cast<int>(*concurrency);

    auto variant = parse_variant(args.get("variant", "8x8"));
    if (!variant) return variant.error();
    config.variant = *variant;
    fingerprint += " variant=" + args.get("variant", "8x8");
    // NBoard's `set game` is a GGF game of an 8x8 board: an NBoard engine would play another game than the
    // runner's (before, it lost every game as illegal).
    for (const auto& e : config.engines) {
        if (*variant != Variant::Standard && e.protocol == Protocol::NBoard)
            return make_error("--variant " + args.get("variant", "") + ": engine " + e.name +
                              " speaks NBoard, whose games are 8x8 only; give it proto=uci");
    }
    if (auto chosen = choose_openings(args, *seed, config, fingerprint); !chosen) return chosen.error();
    if (args.has("sprt")) {
        auto sprt = parse_sprt(args.get("sprt", ""), config.engines.size());
        if (!sprt) return sprt.error();
        config.sprt = *sprt;
    }
    return true;
}

// Where the results go: --out, --resume or --overwrite, --progress, --json.
Expected<bool> read_outputs(const cli::ParsedArgs& args, MatchConfig& config) {
    config.out_prefix = args.get("out", "match");
    config.resume = args.has("resume");
    config.overwrite = args.has("overwrite");
    if (config.resume && config.overwrite) return make_error("give --resume or --overwrite, not both");
    const std::string progress = args.get("progress", "auto");
    if (progress != "auto" && progress != "on" && progress != "off") return make_error("--progress: auto, on or off");
    config.progress = progress == "on" || (progress == "auto" && ::isatty(2));
    config.json_to_stdout = args.has("json");
    return true;
}

}  // namespace

MatchCommand parse_match_command(const std::vector<std::string>& argv) {
    MatchCommand command;
    const auto fail = [&command](const std::string& message) {
        std::fprintf(stderr, "reversi-match: %s\n", message.c_str());
        command.exit_code = 2;
        return command;
    };
    EngineGroups groups = split_engine_groups(argv);
    std::vector<char*> rest;
    for (auto& r : groups.rest) rest.push_back(r.data());
    auto parsed = cli::parse_command_line(kSpec, static_cast<int>(rest.size()), rest.data());
    if (parsed.exit_code) {
        command.exit_code = parsed.exit_code;
        return command;
    }
    const auto& args = parsed.args;
    command.log_level = args.get("log-level", "warn");
    command.queue = args.get("queue", "");
    if (!args.positional.empty()) return fail("unexpected argument '" + args.positional[0] + "'");
    if (groups.engines.size() < 2) return fail("give at least two --engine groups (see --help)");
    if (groups.engines.size() > 64) return fail("at most 64 engines");

    MatchConfig& config = command.config;
    std::string fingerprint;
    if (auto added = add_engines(groups, config, fingerprint); !added) return fail(added.error().message);
    if (auto read = read_schedule(args, config, fingerprint); !read) return fail(read.error().message);
    if (auto read = read_outputs(args, config); !read) return fail(read.error().message);
    config.fingerprint = fingerprint;
    return command;
}

}  // namespace reversi::match
