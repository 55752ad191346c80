#pragma once
// One position solved with one thread and with more, for the tests that compare the two solves.
#include <doctest/doctest.h>

#include <atomic>
#include <utility>

#include "engine/endgame/solver.hpp"

namespace reversi::endgame_test {

// The options of the two solves: `base` with one thread, and with `threads`.
struct ThreadOptions {
    endgame::SolveOptions one;
    endgame::SolveOptions many;
};

inline ThreadOptions with_threads(endgame::SolveOptions base, int threads) {
    ThreadOptions o{base, base};
    o.one.threads = 1;
    o.many.threads = threads;
    return o;
}

// `pos` solved by `one` with `options.one` and by `many` with `options.many`, both from empty tables;
// both solves must answer.
inline std::pair<endgame::SolveResult, endgame::SolveResult> solve_both(endgame::EndgameSolver& one,
                                                                        endgame::EndgameSolver& many,
                                                                        const Position& pos,
                                                                        const ThreadOptions& options) {
    std::atomic<bool> stop{false};
    one.clear();
    many.clear();
    const auto a = one.solve(pos, options.one, stop);
    const auto b = many.solve(pos, options.many, stop);
    REQUIRE(a);
    REQUIRE(b);
    return {*a, *b};
}

}  // namespace reversi::endgame_test
