#include "tools/solve/file_mode.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include "tools/solve/agreement.hpp"

namespace reversi::solve_tool {

namespace {

// What the table's last lines add up.
struct Totals {
    double time = 0;
    double cpu = 0;
    unsigned long long nodes = 0;
    unsigned long long scored = 0;  // children the fast ordering scored without searching them
    int solved = 0;
    int wrong = 0;
};

// --verbose: every root move's result (and the periodic reports) on stderr.
endgame::ProgressCallback verbose_progress() {
    return [](const endgame::RootProgress& p) {
        if (p.move == kNoMove) return print_periodic_report(p);
        std::fprintf(stderr, "  [level %d]%s %s %+d%s %.3fs %llu nodes\n", p.selectivity_level,
                     p.pass_end ? " pass" : "", move_to_string(p.move).c_str(), p.score, bound_suffix(p.bound),
                     static_cast<double>(p.time.count()) / 1000.0, static_cast<unsigned long long>(p.nodes));
    };
}

void print_header(const FileRun& run, const endgame::EndgameSolver& solver) {
    const bool selective = run.options.selective && solver.pattern();
    const std::string passes =
        selective ? "from " + std::to_string(run.options.selective_min_empties) + " empties" : "off";
    std::printf(
        "# file %s, threads %d (split from %d empties), hash %zu MiB, %s, flips %s, ordering %s, selective passes "
        "%s\n",
        run.file.c_str(), run.options.threads, run.options.split_empties, run.hash_mib,
        run.wld ? "win/loss/draw" : "exact", std::string(flips_path()).c_str(), solver.pattern() ? "pattern" : "simple",
        passes.c_str());
    std::printf("%4s %3s %5s %6s %8s %10s %10s %15s %10s  %s\n", "#", "emp", "move", "score", "expected", "time(s)",
                "cpu(s)", "nodes", "Mnodes/s", "pv");
}

void print_row(long long n, const ObfEntry& entry, const endgame::SolveResult& result, double seconds, double cpu,
               bool ok) {
    std::string pv;
    for (std::size_t i = 0; i < result.pv.size() && i < 8; ++i) {
        if (i) pv += ' ';
        pv += move_to_string(result.pv[i]);
    }
    const auto expected = entry.best_score();
    const std::string expected_text = expected ? std::to_string(*expected) : "?";
    std::printf("%4lld %3d %5s %+6d %8s %10.3f %10.3f %15llu %10.2f  %s%s\n", n, entry.position.empty_count(),
                move_to_string(result.best_move).c_str(), result.score, expected_text.c_str(), seconds, cpu,
                static_cast<unsigned long long>(result.nodes),
                seconds > 0 ? static_cast<double>(result.nodes) / seconds / 1e6 : 0.0, pv.c_str(),
                ok ? "" : "   <-- WRONG");
    std::fflush(stdout);
}

void print_totals(const Totals& t) {
    const auto rate = [&](unsigned long long nodes) {
        return t.time > 0 ? static_cast<double>(nodes) / t.time / 1e6 : 0.0;
    };
    std::printf("total: %d positions, %.3f s (cpu %.3f s), %llu nodes, %.2f Mnodes/s, %d wrong\n", t.solved, t.time,
                t.cpu, t.nodes, rate(t.nodes), t.wrong);
    // Edax 4.6 also counts as a node each child its fast ordering scores (COUNT_NODES 7); this solver
    // and Egaroucid do not. The sum is the count to set beside Edax's.
    const unsigned long long edax_count = t.nodes + t.scored;
    std::printf("edax-count: %llu nodes + %llu children scored unsearched = %llu, %.2f Mnodes/s\n", t.nodes, t.scored,
                edax_count, rate(edax_count));
}

}  // namespace

int solve_file(const FileRun& run) {
    endgame::EndgameSolver solver(run.hash_mib);
    if (run.simple_ordering) solver.set_pattern(nullptr);
    print_header(run, solver);
    const endgame::ProgressCallback progress = run.verbose ? verbose_progress() : endgame::ProgressCallback{};
    endgame::SolveOptions options = run.options;
    if (run.wld) {
        options.alpha = -1;
        options.beta = 1;
    }
    std::atomic<bool> stop{false};
    Totals totals;
    for (long long n = run.first; n <= run.last; ++n) {
        const ObfEntry& entry = run.entries[static_cast<std::size_t>(n - run.base)];
        if (!run.keep_hash) solver.clear();
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
        const bool ok = agrees_with_entry(entry, result->score, result->best_move, run.wld);
        print_row(n, entry, *result, seconds, cpu, ok);
        totals.wrong += ok ? 0 : 1;
        ++totals.solved;
        totals.time += seconds;
        totals.cpu += cpu;
        totals.nodes += result->nodes;
        totals.scored += result->scored_children;
    }
    print_totals(totals);
    return totals.wrong ? 1 : 0;
}

}  // namespace reversi::solve_tool
