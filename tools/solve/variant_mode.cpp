#include "tools/solve/variant_mode.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "engine/board/variant_notation.hpp"
#include "engine/endgame/variant_solver.hpp"
#include "tools/solve/agreement.hpp"

namespace reversi::solve_tool {

namespace {

std::string pv_text(const std::vector<Move>& pv, Variant variant) {
    std::string s;
    for (const Move m : pv) {
        if (!s.empty()) s += ' ';
        s += local_move_to_string(m, variant);
    }
    return s;
}

endgame::ProgressCallback verbose_progress(Variant variant) {
    return [variant](const endgame::RootProgress& p) {
        if (p.move == kNoMove) return print_periodic_report(p);
        std::fprintf(stderr, "  %s%s %+d%s %.3fs %llu nodes\n", p.pass_end ? "pass " : "",
                     local_move_to_string(p.move, variant).c_str(), p.score, bound_suffix(p.bound),
                     static_cast<double>(p.time.count()) / 1000.0, static_cast<unsigned long long>(p.nodes));
    };
}

// Without --verbose, a start solve (minutes on 6x6) still reports on stderr: every root move's result,
// and nodes, time and speed every 10 s.
endgame::ProgressCallback quiet_progress(Variant variant) {
    auto verbose = verbose_progress(variant);
    auto next = std::make_shared<std::chrono::milliseconds>(10'000);
    return [verbose, next](const endgame::RootProgress& p) {
        if (p.move != kNoMove) return verbose(p);
        if (p.time < *next) return;
        *next = p.time + std::chrono::milliseconds(10'000);
        const double seconds = static_cast<double>(p.time.count()) / 1000.0;
        std::fprintf(stderr, "  ... %.0f s, %.3g G nodes, %.1f M nodes/s\n", seconds,
                     static_cast<double>(p.nodes) / 1e9,
                     seconds > 0 ? static_cast<double>(p.nodes) / seconds / 1e6 : 0.0);
    };
}

// The start position: score, time, nodes, nodes/s, the principal variation and the final discs it reaches.
int solve_start(const VariantRun& run, endgame::VariantSolver& solver, const endgame::SolveOptions& options) {
    const Position start = start_position(run.variant);
    std::atomic<bool> stop{false};
    const auto t0 = std::chrono::steady_clock::now();
    auto r = solver.solve(start, options, endgame::SolveLimits{&stop, std::nullopt, std::nullopt},
                          run.verbose ? verbose_progress(run.variant) : quiet_progress(run.variant));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r) {
        std::fprintf(stderr, "reversi-solve: %s\n", r.error().message.c_str());
        return 2;
    }
    std::printf("start %s\n", to_compact_board(start, run.variant).c_str());
    std::printf("score %+d (black, to move)%s\n", r->score, run.wld ? " (win/loss/draw window)" : "");
    std::printf("best move %s\n", local_move_to_string(r->best_move, run.variant).c_str());
    std::printf("time %.3f s\nnodes %llu\nnodes/s %.0f\n", seconds, static_cast<unsigned long long>(r->nodes),
                seconds > 0 ? static_cast<double>(r->nodes) / seconds : 0.0);
    std::printf("pv %s\n", pv_text(r->pv, run.variant).c_str());
    Position end = start;
    for (const Move m : r->pv) end = end.play_move(m);
    if (end.is_over()) {
        std::printf("pv ends black %d white %d empty %d\n", popcount(end.black()), popcount(end.white()),
                    end.empty_count());
    }
    return 0;
}

}  // namespace

int solve_variant(const VariantRun& run) {
    endgame::EndgameTT table(run.hash_mib);
    endgame::VariantSolver solver(table);
    endgame::SolveOptions options;
    options.threads = run.threads;
    options.split_empties = run.split_empties;
    if (run.wld) {
        options.alpha = -1;
        options.beta = 1;
    }
    const char* name = variant_info(run.variant).name.data();
    std::printf("# variant %s, %s, hash %zu MiB, %d thread%s, %s\n", name,
                run.file ? run.file->c_str() : "start position", run.hash_mib, run.threads, run.threads > 1 ? "s" : "",
                run.wld ? "win/loss/draw" : "exact");
    if (!run.file) return solve_start(run, solver, options);

    auto entries = read_variant_obf_file(*run.file, run.variant);
    if (!entries) {
        std::fprintf(stderr, "reversi-solve: %s\n", entries.error().message.c_str());
        return 2;
    }
    std::printf("%4s %3s %5s %6s %8s %10s %15s %10s  %s\n", "#", "emp", "move", "score", "expected", "time(s)", "nodes",
                "Mnodes/s", "pv");
    std::atomic<bool> stop{false};
    double total_time = 0;
    unsigned long long total_nodes = 0;
    int wrong = 0;
    int number = 0;
    for (const ObfEntry& entry : *entries) {
        ++number;
        table.clear();
        const auto t0 = std::chrono::steady_clock::now();
        auto r = solver.solve(entry.position, options, endgame::SolveLimits{&stop, std::nullopt, std::nullopt},
                              run.verbose ? verbose_progress(run.variant) : endgame::ProgressCallback{});
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            std::fprintf(stderr, "reversi-solve: position %d: %s\n", number, r.error().message.c_str());
            return 2;
        }
        const bool ok = agrees_with_entry(entry, r->score, r->best_move, run.wld);
        if (!ok) ++wrong;
        const auto expected = entry.best_score();
        total_time += seconds;
        total_nodes += r->nodes;
        const std::string expected_text = expected ? std::to_string(*expected) : "?";
        std::printf("%4d %3d %5s %+6d %8s %10.3f %15llu %10.2f  %s%s\n", number, entry.position.empty_count(),
                    local_move_to_string(r->best_move, run.variant).c_str(), r->score, expected_text.c_str(), seconds,
                    static_cast<unsigned long long>(r->nodes),
                    seconds > 0 ? static_cast<double>(r->nodes) / seconds / 1e6 : 0.0,
                    pv_text(r->pv, run.variant).c_str(), ok ? "" : "   <-- WRONG");
        std::fflush(stdout);
    }
    std::printf("total: %d positions, %.3f s, %llu nodes, %.2f Mnodes/s, %d wrong\n", number, total_time, total_nodes,
                total_time > 0 ? static_cast<double>(total_nodes) / total_time / 1e6 : 0.0, wrong);
    return wrong ? 1 : 0;
}

}  // namespace reversi::solve_tool
