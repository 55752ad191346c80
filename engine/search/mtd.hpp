#pragma once
// Searches built from null-window tests, generic over the test itself so that their counts can be
// checked against theory with a stand-in test:
//
//   mtd_driver   MTD(f) (Plaat et al.): from a first guess g, repeat null-window searches around g,
//                each one moving the lower or the upper bound, until they meet. With a fail-hard test it
//                uses s - f + 2 searches when the guess f is below the value s, 2 when f = s and
//                f - s + 1 when f > s; a fail-soft test can only need fewer.
//                MTD(+inf) is SSS*, MTD(-inf) is DUAL*.
//   cstar_driver C* / NegaC* (strict version): bisection of [lower, upper]; test the window (a, a+1)
//                with a = floor((lower + upper) / 2); a fail high sets lower = a + 1, a fail low sets
//                upper = a, each tightened further by the fail-soft value. At most
//                ceil(log2(hi - lo + 1)) searches on [lo, hi].
//
// `test(beta)` returns the fail-soft result of a search with the window (beta - 1, beta);
// `aborted()` says that the last search was cut short (the drivers then return at once).
#include <algorithm>

#include "engine/search/algorithms.hpp"

namespace reversi {

struct NullWindowResult {
    int value = 0;
    int searches = 0;      // null-window searches made
    bool complete = true;  // false when a search was aborted
};

// floor((a + b) / 2), also for negative sums (C++ division truncates toward zero).
[[nodiscard]] constexpr int floor_midpoint(int a, int b) noexcept {
    const int sum = a + b;
    return sum >= 0 ? sum / 2 : -((-sum + 1) / 2);
}

// MTD(f) with first guess `f`; `infinity` is strictly above every value.
template <class Test, class Aborted>
NullWindowResult mtd_driver(int f, int infinity, Test&& test, Aborted&& aborted) {
    NullWindowResult r;
    int g = f;
    int lower = -infinity;
    int upper = infinity;
    while (lower < upper) {
        const int beta = g == lower ? g + 1 : g;
        g = test(beta);
        ++r.searches;
        if (aborted()) {
            r.complete = false;
            break;
        }
        if (g < beta) {
            upper = g;
        } else {
            lower = g;
        }
    }
    r.value = g;
    return r;
}

// C* on the integer range [lo, hi] (the value must lie in it).
template <class Test, class Aborted>
NullWindowResult cstar_driver(int lo, int hi, Test&& test, Aborted&& aborted) {
    NullWindowResult r;
    int lower = lo;
    int upper = hi;
    while (lower < upper) {
        const int a = floor_midpoint(lower, upper);
        const int g = test(a + 1);  // window (a, a + 1)
        ++r.searches;
        if (aborted()) {
            r.complete = false;
            break;
        }
        if (g > a) {
            lower = std::max(a + 1, g);
        } else {
            upper = std::min(a, g);
        }
        if (lower > upper) upper = lower;  // only after an inconsistent table read
    }
    r.value = lower;
    return r;
}

// The drivers on a real tree: null-window fail-soft alphabeta (with the context's table, when it has
// one). `best_move` receives the root move of the last search that failed high (the move that proves
// the final lower bound), kNoMove when none did.
template <class Ctx, GameState S>
NullWindowResult mtdf(Ctx& ctx, const S& root, int depth, int first_guess, Move& best_move) {
    best_move = kNoMove;
    auto test = [&](int beta) {
        ctx.root_best = kNoMove;
        const int g = alphabeta(ctx, root, depth, beta - 1, beta, 0);
        if (!ctx.aborted && g >= beta) best_move = ctx.root_best;
        return g;
    };
    return mtd_driver(first_guess, Ctx::kInfinity, test, [&] { return ctx.aborted; });
}

template <class Ctx, GameState S>
NullWindowResult cstar(Ctx& ctx, const S& root, int depth, Move& best_move) {
    best_move = kNoMove;
    auto test = [&](int beta) {
        ctx.root_best = kNoMove;
        const int g = alphabeta(ctx, root, depth, beta - 1, beta, 0);
        if (!ctx.aborted && g >= beta) best_move = ctx.root_best;
        return g;
    };
    return cstar_driver(-S::kScoreBound, S::kScoreBound, test, [&] { return ctx.aborted; });
}

}  // namespace reversi
