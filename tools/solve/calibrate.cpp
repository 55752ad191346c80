// reversi-solve --calibrate-probcut: measures the endgame probcut model of engine/endgame/selectivity.hpp.
// Positions with 10..20 empties are reached by random moves from the positions of an OBF file
// (../shared/data/endgame-hard/hard-25.obf), solved exactly (selective passes off); for each empties
// count and shallow depth 0..4, the least-squares line exact ~ a * v + b of the pattern search value v
// (discs) and the standard deviation of its residual. Prints the table, then the constexpr rows for
// the depths of probcut_shallow_depth().
#include "tools/solve/calibrate.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

#include "engine/board/moves.hpp"
#include "engine/board/notation.hpp"
#include "engine/board/random_move.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/endgame/solver.hpp"

namespace reversi::solve_tool {

namespace {

constexpr int kMaxShallow = 4;
constexpr int kMaxEmpties = 20;  // above, exact solves of random positions cost seconds each

struct Fit {
    double a = 1.0;
    double b = 0.0;
    double sigma = 0.0;
};

Fit least_squares(const std::vector<double>& x, const std::vector<double>& y) {
    const double n = static_cast<double>(x.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    Fit f;
    const double den = n * sxx - sx * sx;
    if (n < 3 || den <= 0) return f;
    f.a = (n * sxy - sx * sy) / den;
    f.b = (sy - f.a * sx) / n;
    double ss = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double r = y[i] - (f.a * x[i] + f.b);
        ss += r * r;
    }
    f.sigma = std::sqrt(ss / (n - 2));
    return f;
}

// A random legal continuation down to `empties` (passes played); false when the game ends first.
bool walk_down(Position& pos, int empties, std::mt19937_64& rng) {
    while (pos.empty_count() > empties) {
        if (pos.is_over()) return false;
        pos = play_random_move(pos, rng);
    }
    return !pos.is_over() && pos.moves() != 0;
}

}  // namespace

int calibrate_probcut(const std::vector<ObfEntry>& entries, int samples) {
    if (entries.empty()) {
        std::fprintf(stderr, "reversi-solve: no positions to calibrate from\n");
        return 2;
    }
    endgame::EndgameSolver solver(256);
    if (!solver.pattern()) {
        std::fprintf(stderr, "reversi-solve: the pattern evaluation did not load\n");
        return 2;
    }
    const auto& pattern = *solver.pattern();
    std::atomic<bool> stop{false};
    std::mt19937_64 rng(20261121);
    const std::clock_t c0 = std::clock();
    std::vector<endgame::EndgameProbCut> rows;
    std::printf("# probcut calibration: %d samples per empties count (fewer above 20 empties)\n", samples);
    std::printf("%3s %5s", "emp", "n");
    for (int s = 0; s <= kMaxShallow; ++s) std::printf("   d%d: a      b     sigma", s);
    std::printf("   solve cpu(s)\n");
    for (int empties = endgame::kProbCutMinEmpties; empties <= kMaxEmpties; ++empties) {
        // Solving gets expensive above 20 empties: fewer samples there.
        const int n = empties <= 20 ? samples : std::max(8, samples >> (empties - 20));
        std::vector<double> exact;
        std::array<std::vector<double>, kMaxShallow + 1> shallow;
        const std::clock_t s0 = std::clock();
        int tries = 0;
        while (static_cast<int>(exact.size()) < n && tries < 50 * n) {
            ++tries;
            Position pos = entries[static_cast<std::size_t>(rng() % entries.size())].position;
            if (pos.empty_count() < empties || !walk_down(pos, empties, rng)) continue;
            endgame::SolveOptions options;
            options.selective = false;
            solver.clear();
            const auto r = solver.solve(pos, options, stop);
            if (!r || !r->completed) continue;
            exact.push_back(r->score);
            for (int s = 0; s <= kMaxShallow; ++s) {
                std::uint64_t nodes = 0;
                const int v = endgame::pattern_search(pattern, pos.player, pos.opponent, s, -(1 << 24), 1 << 24, nodes);
                shallow[static_cast<std::size_t>(s)].push_back(v / static_cast<double>(eval::kWeightScale));
            }
        }
        const double cpu = static_cast<double>(std::clock() - s0) / CLOCKS_PER_SEC;
        std::printf("%3d %5zu", empties, exact.size());
        for (int s = 0; s <= kMaxShallow; ++s) {
            const Fit f = least_squares(shallow[static_cast<std::size_t>(s)], exact);
            std::printf("   %5.3f %6.2f %6.2f   ", f.a, f.b, f.sigma);
            if (s == endgame::probcut_shallow_depth(empties)) rows.push_back({s, f.a, f.b, f.sigma});
        }
        std::printf("   %8.1f\n", cpu);
        std::fflush(stdout);
    }
    std::printf("# constexpr rows (empties %d..%d: shallow, a, b, sigma), %.1f s cpu in all\n",
                endgame::kProbCutMinEmpties, kMaxEmpties, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::printf("    {%d, %.3f, %.3f, %.3f},  // %zu empties\n", rows[i].shallow, rows[i].a, rows[i].b,
                    rows[i].sigma, i + static_cast<std::size_t>(endgame::kProbCutMinEmpties));
    }
    return 0;
}

}  // namespace reversi::solve_tool
