#pragma once
// What both modes of reversi-solve (file_mode.cpp, variant_mode.cpp) check and print the same way.
#include <cstdio>

#include "engine/board/notation.hpp"
#include "engine/core/bound.hpp"
#include "engine/endgame/solve_control.hpp"

namespace reversi::solve_tool {

// Whether a solve agrees with its OBF entry: the score (with `wld`, its sign) and a best move that the
// entry scores with the best score (when it lists move scores). An entry without a score agrees.
[[nodiscard]] inline bool agrees_with_entry(const ObfEntry& entry, int score, Move best_move, bool wld) {
    const auto expected = entry.best_score();
    if (!expected) return true;
    const auto sign = [](int v) { return (v > 0) - (v < 0); };
    const auto same = [&](int s) { return wld ? sign(s) == sign(*expected) : s == *expected; };
    if (!same(score)) return false;
    if (entry.move_scores.empty()) return true;
    for (const auto& [m, s] : entry.move_scores) {
        if (m == best_move && same(s)) return true;
    }
    return false;
}

// A root move's score as the progress lines print it: nothing for an exact one, else which bound it is.
[[nodiscard]] constexpr const char* bound_suffix(Bound bound) noexcept {
    return bound == Bound::Exact ? "" : (bound == Bound::Lower ? " (>=)" : " (<=)");
}

// --verbose: the solver's periodic report (a progress without a move) on stderr, time and nodes so far.
inline void print_periodic_report(const endgame::RootProgress& p) {
    std::fprintf(stderr, "  ... %.3fs %llu nodes\n", static_cast<double>(p.time.count()) / 1000.0,
                 static_cast<unsigned long long>(p.nodes));
}

}  // namespace reversi::solve_tool
