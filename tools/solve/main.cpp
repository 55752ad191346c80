// reversi-solve: solves the positions of an OBF file with the exact endgame solver and compares each
// score with the file's; a table per position, totals, and exit status 1 when any score is wrong.
// --variant: the same on another board (variant_mode.cpp), or the solve of its start position.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

#include "engine/board/notation.hpp"
#include "engine/endgame/solver.hpp"
#include "protocol/cli/command_line.hpp"
#include "protocol/cli/logging.hpp"
#include "tools/solve/calibrate.hpp"
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

int sign(int v) { return (v > 0) - (v < 0); }

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec{
        "reversi-solve",
        "reversi-solve [--file F.obf] [--threads N] [--hash MiB] [--wld] [--first N] [--last N]\n"
        "       reversi-solve --variant 6x6|6x6-parallel|4x4|diamond|diamond-parallel [--file F.obf] [--threads N] "
        "[--split-from N] [--hash MiB] [--wld]",
        "Solves every position of an OBF file exactly (or win/loss/draw with --wld) and prints, per\n"
        "position: number, empties, best move, score, expected score, time, nodes and nodes/s, then\n"
        "totals, and the node count as Edax 4.6 makes it (the children the fast ordering scores without\n"
        "searching them count as nodes there, not here). Exits with status 1 when a score (or, with --wld,\n"
        "a result) differs from the file's.\n"
        "With --variant (a board other than 8x8) the positions are on that board: each OBF board lists the\n"
        "variant's playable squares alone, row by row from its top-left square (36 characters on 6x6, 16 on\n"
        "4x4, 24 on the diamonds: d2 e2 / c3-f3 / b4-g4 / b5-g5 / c6-f6 / d7 e7 of the 8x8 board), then the\n"
        "side to move; moves are named in the variant's own coordinates (a1 = the top-left corner of the\n"
        "smallest rectangle holding its squares: b2 of 8x8 on 6x6 and the diamonds, c3 on 4x4). Without\n"
        "--file it solves the variant's start position and prints the score (black's), time, nodes,\n"
        "nodes/s and the principal variation (progress on stderr). --threads, --split-from, --hash and --wld\n"
        "apply; the 8x8 solver's other options do not.",
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
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    if (!cli::init_logging("reversi-solve", "info")) return 2;
    const std::string file = args.get("file", default_file());
    auto threads = args.get_int("threads", 1, 1, 256);
    auto hash = args.get_int("hash", 256, 1, 65536);
    if (!threads || !hash) {
        std::fprintf(stderr, "reversi-solve: %s\n", (!threads ? threads.error() : hash.error()).message.c_str());
        return 2;
    }
    if (args.has("variant")) {
        auto variant = parse_variant(args.get("variant", ""));
        if (!variant) {
            std::fprintf(stderr, "reversi-solve: --variant: %s\n", variant.error().message.c_str());
            return 2;
        }
        if (*variant != Variant::Standard) {
            solve_tool::VariantRun run;
            run.variant = *variant;
            if (args.has("file")) run.file = args.get("file", "");
            run.hash_mib = static_cast<std::size_t>(*hash);
            run.wld = args.has("wld");
            run.verbose = args.has("verbose");
            run.threads = *threads;
            auto split_from = args.get_int("split-from", 18, 1, 61);
            if (!split_from) {
                std::fprintf(stderr, "reversi-solve: %s\n", split_from.error().message.c_str());
                return 2;
            }
            run.split_empties = *split_from;
            return solve_tool::solve_variant(run);
        }
    }
    auto entries = read_obf_file(file);
    if (!entries) {
        std::fprintf(stderr, "reversi-solve: %s\n", entries.error().message.c_str());
        return 2;
    }
    const long long base_default = file.find("fforum-40-59") != std::string::npos   ? 40
                                   : file.find("fforum-20-39") != std::string::npos ? 20
                                   : file.find("fforum-60-79") != std::string::npos ? 60
                                                                                    : 1;
    auto base = args.get_int("number", base_default, 0, 1000000);
    if (!base) {
        std::fprintf(stderr, "reversi-solve: %s\n", base.error().message.c_str());
        return 2;
    }
    const long long count = static_cast<long long>(entries->size());
    auto first = args.get_int("first", *base, *base, *base + count - 1);
    auto last = args.get_int("last", *base + count - 1, *base, *base + count - 1);
    if (!first || !last) {
        std::fprintf(stderr, "reversi-solve: %s\n", (!first ? first.error() : last.error()).message.c_str());
        return 2;
    }
    if (args.has("calibrate-probcut")) {
        auto samples = args.get_int("samples", 200, 10, 100000);
        if (!samples) {
            std::fprintf(stderr, "reversi-solve: %s\n", samples.error().message.c_str());
            return 2;
        }
        return solve_tool::calibrate_probcut(*entries, static_cast<int>(*samples));
    }
    auto selective_from = args.get_int("selective-from", 20, 0, 64);
    auto probcut_from = args.get_int("probcut-from", 14, 10, 64);
    auto split_from = args.get_int("split-from", 18, 1, 61);
    for (const auto* v : {&selective_from, &probcut_from, &split_from}) {
        if (!*v) {
            std::fprintf(stderr, "reversi-solve: %s\n", v->error().message.c_str());
            return 2;
        }
    }
    const std::string ordering = args.get("ordering", "pattern");
    if (ordering != "pattern" && ordering != "simple") {
        std::fprintf(stderr, "reversi-solve: --ordering: expected pattern or simple, got '%s'\n", ordering.c_str());
        return 2;
    }
    const bool wld = args.has("wld");
    const bool verbose = args.has("verbose");

    endgame::EndgameSolver solver(static_cast<std::size_t>(*hash));
    if (ordering == "simple") solver.set_pattern(nullptr);
    std::atomic<bool> stop{false};
    endgame::SolveOptions options;
    options.threads = static_cast<int>(*threads);
    options.aspiration = !args.has("no-aspiration");
    options.selective = !args.has("no-selective");
    options.selective_min_empties = static_cast<int>(*selective_from);
    options.probcut_empties = static_cast<int>(*probcut_from);
    options.split_empties = static_cast<int>(*split_from);
    if (wld) {
        options.alpha = -1;
        options.beta = 1;
    }
    const bool selective = options.selective && solver.pattern();
    std::printf(
        "# file %s, threads %d (split from %d empties), hash %lld MiB, %s, flips %s, ordering %s, selective passes "
        "%s\n",
        file.c_str(), options.threads, options.split_empties, *hash, wld ? "win/loss/draw" : "exact",
        std::string(flips_path()).c_str(), solver.pattern() ? "pattern" : "simple",
        selective ? ("from " + std::to_string(options.selective_min_empties) + " empties").c_str() : "off");
    std::printf("%4s %3s %5s %6s %8s %10s %10s %15s %10s  %s\n", "#", "emp", "move", "score", "expected", "time(s)",
                "cpu(s)", "nodes", "Mnodes/s", "pv");
    double total_time = 0;
    double total_cpu = 0;
    unsigned long long total_nodes = 0;
    unsigned long long total_scored = 0;
    int wrong = 0;
    int solved = 0;
    for (long long n = *first; n <= *last; ++n) {
        const ObfEntry& entry = (*entries)[static_cast<std::size_t>(n - *base)];
        if (!args.has("keep-hash")) solver.clear();
        endgame::ProgressCallback progress;
        if (verbose) {
            progress = [](const endgame::RootProgress& p) {
                if (p.move == kNoMove) {  // periodic report
                    std::fprintf(stderr, "  ... %.3fs %llu nodes\n", static_cast<double>(p.time.count()) / 1000.0,
                                 static_cast<unsigned long long>(p.nodes));
                    return;
                }
                std::fprintf(stderr, "  [level %d]%s %s %+d%s %.3fs %llu nodes\n", p.selectivity_level,
                             p.pass_end ? " pass" : "", move_to_string(p.move).c_str(), p.score,
                             p.bound == Bound::Exact ? "" : (p.bound == Bound::Lower ? " (>=)" : " (<=)"),
                             static_cast<double>(p.time.count()) / 1000.0, static_cast<unsigned long long>(p.nodes));
            };
        }
        const std::clock_t c0 = std::clock();
        const auto t0 = std::chrono::steady_clock::now();
        auto result = solver.solve(entry.position, options, stop, progress);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // Processor time of all threads: on a loaded machine it shows the work done better than the wall clock.
        const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        if (!result) {
            std::fprintf(stderr, "reversi-solve: position %lld: %s\n", n, result.error().message.c_str());
            return 2;
        }
        const auto expected = entry.best_score();
        bool ok = true;
        if (expected) {
            ok = wld ? sign(result->score) == sign(*expected) : result->score == *expected;
        }
        // A best move must be one the file scores with the best score.
        bool move_ok = !expected || entry.move_scores.empty();
        for (const auto& [m, s] : entry.move_scores) {
            if (m == result->best_move && (wld ? sign(s) == sign(*expected) : s == *expected)) move_ok = true;
        }
        if (!ok || !move_ok) ++wrong;
        ++solved;
        total_time += seconds;
        total_cpu += cpu;
        total_nodes += result->nodes;
        total_scored += result->scored_children;
        std::string pv;
        for (std::size_t i = 0; i < result->pv.size() && i < 8; ++i) {
            if (i) pv += ' ';
            pv += move_to_string(result->pv[i]);
        }
        const std::string expected_text = expected ? std::to_string(*expected) : "?";
        std::printf("%4lld %3d %5s %+6d %8s %10.3f %10.3f %15llu %10.2f  %s%s\n", n, entry.position.empty_count(),
                    move_to_string(result->best_move).c_str(), result->score, expected_text.c_str(), seconds, cpu,
                    static_cast<unsigned long long>(result->nodes),
                    seconds > 0 ? static_cast<double>(result->nodes) / seconds / 1e6 : 0.0, pv.c_str(),
                    ok && move_ok ? "" : "   <-- WRONG");
        std::fflush(stdout);
    }
    std::printf("total: %d positions, %.3f s (cpu %.3f s), %llu nodes, %.2f Mnodes/s, %d wrong\n", solved, total_time,
                total_cpu, total_nodes, total_time > 0 ? static_cast<double>(total_nodes) / total_time / 1e6 : 0.0,
                wrong);
    // Edax 4.6 also counts as a node each child its fast ordering scores (COUNT_NODES 7); this solver
    // and Egaroucid do not. The sum is the count to set beside Edax's.
    const unsigned long long edax_count = total_nodes + total_scored;
    std::printf("edax-count: %llu nodes + %llu children scored unsearched = %llu, %.2f Mnodes/s\n", total_nodes,
                total_scored, edax_count, total_time > 0 ? static_cast<double>(edax_count) / total_time / 1e6 : 0.0);
    return wrong ? 1 : 0;
}
