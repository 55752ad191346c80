// reversi-train selfplay: games of the engine against itself from XOT openings, written as a WTHOR file
// for the trainer. After the opening, --random-plies uniformly random moves (the randomness that reaches
// positions humans avoid), then the engine's search at --depth (Multi-ProbCut at --selectivity) until
// --exact-from empties, then perfect play by the endgame solver. So the final score is the exact score
// of every position from --exact-from empties on, and the file records it as the theoretical score with
// that depth: the trainer gives those positions exact targets and earlier ones the game's result.
// --random-rate P makes each later move above --random-until empties a random one with probability P %.
// With --queue, the games are played by workers on other machines (selfplay_queue.cpp); the file is the same.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "engine/board/random_move.hpp"
#include "engine/data/openings.hpp"
#include "engine/data/wthor_writer.hpp"
#include "engine/endgame/solver.hpp"
#include "engine/search/searcher.hpp"
#include "tools/train/commands.hpp"
#include "tools/train/selfplay.hpp"

namespace reversi::train {

namespace {

// One game from an opening; deterministic for the seed (the tables are cleared first).
Expected<data::WthorGame> play_game(const data::Opening& opening, const SelfPlayJob& s, std::uint64_t seed,
                                    Searcher& searcher, endgame::EndgameSolver& solver) {
    searcher.clear();
    solver.clear();
    std::mt19937_64 rng(seed);
    const std::atomic<bool> stop{false};
    data::WthorGame game;
    Position pos = start_position();
    int after_opening = 0;
    while (!pos.is_over()) {
        if (pos.must_pass()) {
            pos = pos.pass();
            continue;
        }
        Move m = kNoMove;
        const bool chosen = game.moves.size() < opening.moves.size() || after_opening < s.random_plies;
        if (chosen && pos.empty_count() <= s.exact_from) {
            // The file claims perfect play from --exact-from empties (the trainer relies on it).
            return make_error("an opening or random move at " + std::to_string(pos.empty_count()) +
                              " empties, within --exact-from " + std::to_string(s.exact_from) +
                              ": fewer random plies, shorter openings or a smaller --exact-from");
        }
        if (game.moves.size() < opening.moves.size()) {
            m = opening.moves[game.moves.size()];  // legal: read_openings replayed it
        } else if (after_opening++ < s.random_plies) {
            m = random_legal_move(pos, rng);
        } else if (s.random_rate > 0 && pos.empty_count() > s.random_until &&
                   static_cast<int>(rng() % 100) < s.random_rate) {
            m = random_legal_move(pos, rng);
        } else if (pos.empty_count() <= s.exact_from) {
            auto r = solver.solve(pos, endgame::SolveOptions{}, stop);
            if (!r) return r.error();
            m = r->best_move;
        } else {
            SearchLimits limits;
            limits.depth = s.depth;
            m = searcher.search(pos, limits, SearchCallbacks{}, stop).best_move;
        }
        if (m >= 64 || !(pos.moves() & square_bit(m))) return make_error("the search returned " + move_to_string(m));
        game.moves.push_back(m);
        pos = pos.play(m);
    }
    const int black = pos.side == Color::Black ? pos.final_score() : -pos.final_score();
    game.black_score = (black + 64) / 2;
    game.theoretical_black_score = game.black_score;  // perfect play from exact_from empties on
    return game;
}

// The folder of --out exists and may be written in (checked before hours of games, which were lost when
// the file could not be written at the end).
Expected<bool> out_folder_writable(const std::string& out) {
    const std::filesystem::path folder = std::filesystem::path(out).parent_path();
    const std::string name = folder.empty() ? "." : folder.string();
    std::error_code ec;
    if (!std::filesystem::is_directory(name, ec)) return make_error("--out " + out + ": no folder " + name);
    if (::access(name.c_str(), W_OK) != 0)
        return make_error("--out " + out + ": the folder " + name + " is not writable");
    return true;
}

// Game i: opening number hash(seed, i) of the list, its own random stream; games are independent, so the
// file depends on neither the thread count nor the machines.
std::uint64_t game_seed(std::uint64_t seed, std::size_t i) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + i + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace

std::vector<std::string> SelfPlayJob::game_options() const {
    std::vector<std::string> options{"--games",        std::to_string(games),
                                     "--depth",        std::to_string(depth),
                                     "--selectivity",  std::to_string(selectivity),
                                     "--random-plies", std::to_string(random_plies),
                                     "--exact-from",   std::to_string(exact_from),
                                     "--seed",         std::to_string(seed),
                                     "--openings",     openings_path};
    if (random_rate > 0)  // only then: the jobs without them keep their fingerprints
        options.insert(options.end(),
                       {"--random-rate", std::to_string(random_rate), "--random-until", std::to_string(random_until)});
    return options;
}

std::string SelfPlayJob::fingerprint() const {
    std::string text = "selfplay";
    for (const auto& o : game_options()) text += " " + o;
    // FNV-1a over the openings' moves: a worker whose file has other openings at the same count (before,
    // only the count was compared) refuses the job instead of playing other games under its numbers.
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const auto& o : openings) {
        for (Move m : o.moves) hash = (hash ^ static_cast<std::uint64_t>(m)) * 0x100000001b3ULL;
        hash = (hash ^ 0xffU) * 0x100000001b3ULL;  // the end of an opening
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return text + " (" + std::to_string(openings.size()) + " openings " + hex + ")";
}

namespace {

// "YYYY-MM-DD" (a real calendar date, year 1900-2155: WTHOR keeps the century and year in two bytes).
Expected<bool> parse_date(const std::string& text, SelfPlayJob& job) {
    const auto bad = [&] { return make_error("selfplay: --date must be YYYY-MM-DD, not '" + text + "'"); };
    // The number written by text[from, from + length), or -1 when a character is not a digit.
    const auto digits = [&](std::size_t from, std::size_t length) {
        int v = 0;
        for (std::size_t i = from; i < from + length; ++i) {
            if (text[i] < '0' || text[i] > '9') return -1;
            v = 10 * v + (text[i] - '0');
        }
        return v;
    };
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return bad();
    const int y = digits(0, 4), m = digits(5, 2), d = digits(8, 2);
    if (y < 1900 || y > 2155 || m < 0 || d < 0) return bad();
    const std::chrono::year_month_day date{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(m)},
                                           std::chrono::day{static_cast<unsigned>(d)}};
    if (!date.ok()) return bad();
    job.year = y, job.month = m, job.day = d;
    return true;
}

}  // namespace

Expected<SelfPlayJob> selfplay_job(const cli::ParsedArgs& args, bool need_out) {
    const auto games = args.get_int("games", 1000, 1, 10000000);
    const auto depth = args.get_int("depth", 6, 1, 30);
    const auto selectivity =
        args.get_int("selectivity", kEngineSelectivityPercent, kMinSelectivityPercent, kMaxSelectivityPercent);
    const auto random_plies = args.get_int("random-plies", 2, 0, 60);
    const auto exact_from = args.get_int("exact-from", 20, 0, 30);
    const auto random_rate = args.get_int("random-rate", 0, 0, 100);
    const auto random_until = args.get_int("random-until", exact_from ? *exact_from : 20, 0, 60);
    const auto threads = args.get_int("threads", 1, 1, 256);
    const auto seed = args.get_int("seed", 1, 0, 1LL << 62);
    for (const auto* v :
         {&games, &depth, &selectivity, &random_plies, &exact_from, &random_rate, &random_until, &threads, &seed}) {
        if (!*v) return v->error();
    }
    if (*random_until < *exact_from)  // the file claims perfect play from --exact-from empties
        return make_error("selfplay: --random-until " + std::to_string(*random_until) + " is below --exact-from " +
                          std::to_string(*exact_from));
    SelfPlayJob job;
    job.games = static_cast<std::size_t>(*games);
    job.depth = static_cast<int>(*depth);
    job.selectivity = static_cast<int>(*selectivity);
    job.random_plies = static_cast<int>(*random_plies);
    job.exact_from = static_cast<int>(*exact_from);
    job.random_rate = static_cast<int>(*random_rate);
    job.random_until = static_cast<int>(*random_until);
    job.seed = static_cast<std::uint64_t>(*seed);
    job.threads = static_cast<int>(*threads);
    job.out = args.get("out", "");
    if (need_out && (job.out.empty() || !job.out.ends_with(".wtb"))) return make_error("selfplay needs --out FILE.wtb");
    job.openings_path = args.get("openings", "../shared/data/openings/xot/openingslarge.txt");
    if (args.has("date")) {
        if (auto date = parse_date(args.get("date", ""), job); !date) return date.error();
    }
    return job;
}

Expected<bool> load_selfplay_openings(SelfPlayJob& job) {
    auto openings = data::read_openings(job.openings_path, Variant::Standard);
    if (!openings) return openings.error();
    for (const auto& o : *openings) {
        if (o.start != start_position())  // a board string: WTHOR games start from the standard position
            return make_error("selfplay: opening '" + o.text + "' is a board, not moves from the start");
    }
    job.openings = std::move(*openings);
    // A pass written in an opening is where the side to move has none: the games play it themselves, and
    // a WTHOR game leaves it out (before, the written pass was later taken for a move of the game).
    for (auto& o : job.openings) std::erase(o.moves, kPass);
    return true;
}

const data::Opening& selfplay_opening(const SelfPlayJob& job, std::size_t i) {
    return job.openings[game_seed(job.seed, i) % job.openings.size()];
}

SelfPlayEngine::SelfPlayEngine(int selectivity) {
    SearchOptions options;
    options.selectivity = selectivity;
    options.ordering = kEngineOrdering;  // the engine's own search
    searcher.set_options(options);
}

Expected<data::WthorGame> play_selfplay_game(const SelfPlayJob& job, std::size_t i, SelfPlayEngine& engine) {
    const auto& opening = selfplay_opening(job, i);
    auto game = play_game(opening, job, game_seed(job.seed, i), engine.searcher, engine.solver);
    if (!game)
        return make_error("game " + std::to_string(i + 1) + " (opening " + opening.text + "): " + game.error().message);
    return game;
}

int write_selfplay_file(const SelfPlayJob& job, std::vector<data::WthorGame> games, double seconds) {
    data::WthorFile file;
    int year = job.year, month = job.month, day = job.day;
    if (year == 0) {
        const std::time_t now = std::time(nullptr);
        std::tm utc{};
        gmtime_r(&now, &utc);
        year = 1900 + utc.tm_year, month = utc.tm_mon + 1, day = utc.tm_mday;
    }
    file.header = data::WthorHeader{year, month, day, 0, year, 8, 0, job.exact_from};
    file.games = std::move(games);
    if (auto written = data::write_wthor_file(job.out, file); !written) {
        std::fprintf(stderr, "reversi-train: %s\n", written.error().message.c_str());
        return 1;
    }
    long long black_wins = 0, white_wins = 0;
    for (const auto& g : file.games) black_wins += g.black_score > 32, white_wins += g.black_score < 32;
    std::printf(
        "selfplay: %zu games written to %s (theoretical-score depth %d): black won %lld, white %lld, drawn %lld; "
        "%.0f s\n",
        file.games.size(), job.out.c_str(), job.exact_from, black_wins, white_wins,
        static_cast<long long>(file.games.size()) - black_wins - white_wins, seconds);
    return 0;
}

int run_selfplay(const cli::ParsedArgs& args) {
    auto parsed = selfplay_job(args, true);
    if (!parsed) {
        std::fprintf(stderr, "reversi-train: %s\n", parsed.error().message.c_str());
        return 2;
    }
    if (auto loaded = load_selfplay_openings(*parsed); !loaded) {
        std::fprintf(stderr, "reversi-train: %s\n", loaded.error().message.c_str());
        return 1;
    }
    const SelfPlayJob& job = *parsed;
    if (auto writable = out_folder_writable(job.out); !writable) {  // before the games, not after them
        std::fprintf(stderr, "reversi-train: selfplay: %s\n", writable.error().message.c_str());
        return 1;
    }
    if (args.has("queue")) return run_selfplay_queue(job, args.get("queue", ""));
    const std::size_t n = job.games;
    std::vector<data::WthorGame> played(n);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::string failure;
    std::size_t done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto last_report = t0;
    const auto work = [&] {
        SelfPlayEngine engine(job.selectivity);
        for (std::size_t i; !failed && (i = next++) < n;) {
            auto game = play_selfplay_game(job, i, engine);
            const std::lock_guard lock(mutex);
            if (!game) {
                failure = game.error().message;
                failed = true;
                return;
            }
            played[i] = std::move(*game);
            ++done;
            const auto now = std::chrono::steady_clock::now();
            if (now - last_report > std::chrono::seconds(10) || done == n) {
                last_report = now;
                const double secs = std::chrono::duration<double>(now - t0).count();
                spdlog::info("selfplay: {}/{} games, {:.0f} s, about {:.0f} s left", done, n, secs,
                             secs / static_cast<double>(done) * static_cast<double>(n - done));
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (int t = 1; t < job.threads; ++t) pool.emplace_back(work);
        work();
    }
    if (failed) {
        std::fprintf(stderr, "reversi-train: selfplay: %s\n", failure.c_str());
        return 1;
    }
    return write_selfplay_file(job, std::move(played),
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace reversi::train
