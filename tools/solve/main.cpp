// reversi-solve: solves the positions of an OBF file with the exact endgame solver and compares each
// score with the file's; a table per position, totals, and exit status 1 when any score is wrong
// (file_mode.cpp). --variant: the same on another board (variant_mode.cpp), or the solve of its start
// position.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "protocol/cli/command_line.hpp"
#include "protocol/cli/logging.hpp"
#include "tools/solve/calibrate.hpp"
#include "tools/solve/file_mode.hpp"
#include "tools/solve/variant_mode.hpp"

using namespace reversi;

namespace {

// ../shared/data/ffo/fforum-40-59.obf from the project root: the root is found from this source file's
// path (the build passes absolute paths), else the current directory is taken as the root.
std::string default_file() {
    const auto relative = std::filesystem::path("..") / "shared" / "data" / "ffo" / "fforum-40-59.obf";
    const std::filesystem::path source(__FILE__);
    if (source.is_absolute()) {
        const auto candidate = source.parent_path().parent_path().parent_path() / relative;
        if (std::filesystem::exists(candidate)) return candidate.lexically_normal().string();
    }
    return relative.string();
}

// A bad argument or file: the message on stderr, exit status 2.
int refuse(const std::string& message) {
    std::fprintf(stderr, "reversi-solve: %s\n", message.c_str());
    return 2;
}

// The FFO number of a file's first position, from the suite's file names (1 for any other file).
long long default_base(const std::string& file) {
    if (file.find("fforum-40-59") != std::string::npos) return 40;
    if (file.find("fforum-20-39") != std::string::npos) return 20;
    if (file.find("fforum-60-79") != std::string::npos) return 60;
    return 1;
}

// --variant with a board other than 8x8: its exit status; nullopt for 8x8 (or no --variant).
std::optional<int> run_variant(const cli::ParsedArgs& args, long long threads, long long hash) {
    if (!args.has("variant")) return std::nullopt;
    auto variant = parse_variant(args.get("variant", ""));
    if (!variant) return refuse("--variant: " + variant.error().message);
    if (*variant == Variant::Standard) return std::nullopt;
    // Only the options the variant solver reads; the 8x8 solver's others (and any added later) are refused
    // rather than ignored (before, --first 3 solved every position).
    for (const auto& [name, value] : args.values) {
        if (name != "file" && name != "threads" && name != "hash" && name != "wld" && name != "verbose" &&
            name != "variant" && name != "split-from")
            return refuse("--" + name + " is an option of the 8x8 solver, not of --variant " + args.get("variant", ""));
    }
    solve_tool::VariantRun run;
    run.variant = *variant;
    if (args.has("file")) run.file = args.get("file", "");
    run.hash_mib = static_cast<std::size_t>(hash);
    run.wld = args.has("wld");
    run.verbose = args.has("verbose");
    run.threads = static_cast<int>(threads);
    auto split_from = args.get_int("split-from", 18, 1, 61);
    if (!split_from) return refuse(split_from.error().message);
    run.split_empties = static_cast<int>(*split_from);
    return solve_tool::solve_variant(run);
}

// The solver's options from the command line (threads and the window set by the caller).
Expected<endgame::SolveOptions> solve_options(const cli::ParsedArgs& args) {
    auto selective_from = args.get_int("selective-from", 20, 0, 64);
    auto probcut_from = args.get_int("probcut-from", 14, 10, 64);
    auto split_from = args.get_int("split-from", 18, 1, 61);
    for (const auto* v : {&selective_from, &probcut_from, &split_from}) {
        if (!*v) return v->error();
    }
    endgame::SolveOptions options;
    options.aspiration = !args.has("no-aspiration");
    options.selective = !args.has("no-selective");
    options.selective_min_empties = static_cast<int>(*selective_from);
    options.probcut_empties = static_cast<int>(*probcut_from);
    options.split_empties = static_cast<int>(*split_from);
    return options;
}

cli::ProgramSpec program_spec() {
    cli::ProgramSpec spec{
        "reversi-solve",
        "reversi-solve [--file F.obf] [--threads N] [--hash MiB] [--wld] [--first N] [--last N]\n"
        "       reversi-solve --variant 6x6|6x6-parallel|4x4|diamond|diamond-parallel [--file F.obf] [--threads N] "
        "[--split-from N] [--hash MiB] [--wld]",
        "Solves every position of an OBF file exactly (or win/loss/draw with --wld) and prints, per\n"
        "position: number, empties, best move, score, expected score, time, nodes and nodes/s, then\n"
        "totals, and the node count as Edax 4.6 makes it (the children the fast ordering scores without\n"
        "searching them count as nodes there, not here). Exits with status 1 when a score (or, with --wld,\n"
        "a result) differs from the file's, or the best move is not one the file scores best.\n"
        "With --variant (a board other than 8x8) the positions are on that board: each OBF board lists the\n"
        "variant's playable squares alone, row by row from its top-left square (36 characters on 6x6, 16 on\n"
        "4x4, 24 on the diamonds: d2 e2 / c3-f3 / b4-g4 / b5-g5 / c6-f6 / d7 e7 of the 8x8 board), then the\n"
        "side to move; moves are named in the variant's own coordinates (a1 = the top-left corner of the\n"
        "smallest rectangle holding its squares: b2 of 8x8 on 6x6 and the diamonds, c3 on 4x4). Without\n"
        "--file it solves the variant's start position and prints the score (black's), time, nodes,\n"
        "nodes/s and the principal variation (progress on stderr). --threads, --split-from, --hash, --wld\n"
        "and --verbose apply; the 8x8 solver's other options are refused.",
        {{"file", true, "OBF file (default ../shared/data/ffo/fforum-40-59.obf from the project root)"},
         {"threads", true, "search threads (default 1)"},
         {"hash", true, "transposition table in MiB (default 256)"},
         {"wld", false, "win/loss/draw only: window (-1, 1)"},
         {"first", true, "first position to solve, numbered from the file's first FFO number (default: all)"},
         {"last", true, "last position to solve"},
         {"number", true, "number of the file's first position (default: 40 for fforum-40-59, else 1)"},
         {"no-aspiration", false, "full window at the root"},
         {"no-selective", false, "no selective (probcut) passes before the exact one"},
         {"selective-from", true, "root empties from which the selective passes run (default 20)"},
         {"probcut-from", true, "fewest empties of a probcut node in a selective pass (default 14, >= 10)"},
         {"calibrate-probcut", false,
          "fit the endgame probcut table from positions reached by random moves from --file (use "
          "../shared/data/endgame-hard/hard-25.obf) and print it; no solving of the file itself"},
         {"samples", true, "with --calibrate-probcut: positions per empties count (default 200)"},
         {"split-from", true,
          "with --threads > 1: principal-variation nodes with this many empties or more are split among the "
          "threads after their first move (default 18; 61: the root only, helpers start at once)"},
         {"ordering", true,
          "pattern (default: the trained pattern evaluation orders moves from 12 empties and drives the "
          "selective passes) or simple (the mobility/corner evaluation only; no selective passes)"},
         {"keep-hash", false, "keep the table between positions (default: cleared before each)"},
         {"verbose", false, "log every root move result to stderr"},
         {"variant", true,
          "8x8 (default), 6x6, 6x6-parallel, 4x4, diamond or diamond-parallel: solve on that board (see above)"}},
        "Example: nice -n 10 build/release/tools/reversi-solve --threads 2"};
    spec.takes_positional = false;
    return spec;
}

// The 8x8 mode: the positions of --file (--first to --last), or --calibrate-probcut on them.
int run_file(const cli::ParsedArgs& args, long long threads, long long hash) {
    solve_tool::FileRun run;
    run.file = args.get("file", default_file());
    auto entries = read_obf_file(run.file);
    if (!entries) return refuse(entries.error().message);
    run.entries = std::move(*entries);
    auto base = args.get_int("number", default_base(run.file), 0, 1000000);
    if (!base) return refuse(base.error().message);
    const long long count = static_cast<long long>(run.entries.size());
    auto first = args.get_int("first", *base, *base, *base + count - 1);
    auto last = args.get_int("last", *base + count - 1, *base, *base + count - 1);
    if (!first || !last) return refuse((!first ? first.error() : last.error()).message);
    if (*first > *last) {
        return refuse("--first " + std::to_string(*first) + " is after --last " + std::to_string(*last) +
                      ": no position to solve");
    }
    if (args.has("calibrate-probcut")) {
        auto samples = args.get_int("samples", 200, 10, 100000);
        if (!samples) return refuse(samples.error().message);
        return solve_tool::calibrate_probcut(run.entries, static_cast<int>(*samples));
    }
    auto options = solve_options(args);
    if (!options) return refuse(options.error().message);
    const std::string ordering = args.get("ordering", "pattern");
    if (ordering != "pattern" && ordering != "simple") {
        return refuse("--ordering: expected pattern or simple, got '" + ordering + "'");
    }
    run.base = *base;
    run.first = *first;
    run.last = *last;
    run.hash_mib = static_cast<std::size_t>(hash);
    run.options = *options;
    run.options.threads = static_cast<int>(threads);
    run.wld = args.has("wld");
    run.simple_ordering = ordering == "simple";
    run.keep_hash = args.has("keep-hash");
    run.verbose = args.has("verbose");
    return solve_tool::solve_file(run);
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec = program_spec();
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    if (!cli::init_logging("reversi-solve", "info")) return 2;
    auto threads = args.get_int("threads", 1, 1, 256);
    auto hash = args.get_int("hash", 256, 1, 65536);
    if (!threads || !hash) return refuse((!threads ? threads.error() : hash.error()).message);
    if (auto status = run_variant(args, *threads, *hash)) return *status;
    return run_file(args, *threads, *hash);
}
