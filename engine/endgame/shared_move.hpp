#pragma once
// The value of one move of a node whose moves several threads share (a root pass's moves, a split
// point's), while the others raise the node's alpha: the rule both use.
#include <optional>

namespace reversi::endgame {

// The move's child is first tested with a null window at the node's current alpha. A test that fails
// high at a principal-variation node is checked against alpha again: if another thread raised alpha past
// the test's score meanwhile, the move is tested again at the new alpha; otherwise it is searched again
// with the window (alpha, beta) to get its value.
//
// `alpha()` reads the node's alpha now; `test(a)` is the move's fail-soft score from a null window at a
// (the move is better than a when the score is); `research(a)` its score with the window (a, beta);
// `stopped()` tells that the last search was stopped. Returns the move's fail-soft score, or nothing when
// the node is already cut (alpha reached beta) or the search was stopped: the move then has no value.
template <class Alpha, class Test, class Research, class Stopped>
[[nodiscard]] std::optional<int> shared_move_score(int beta, bool pv, Alpha&& alpha, Test&& test, Research&& research,
                                                   Stopped&& stopped) {
    for (int a = alpha();; a = alpha()) {
        if (a >= beta) return std::nullopt;
        int score = test(a);
        if (stopped()) return std::nullopt;
        if (score <= a || !pv) return score;
        const int now = alpha();
        if (now >= beta) return std::nullopt;
        if (score <= now && now != a) continue;  // the best improved meanwhile: test again
        if (score < beta) score = research(now);
        if (stopped()) return std::nullopt;
        return score;
    }
}

}  // namespace reversi::endgame
