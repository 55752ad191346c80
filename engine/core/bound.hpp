#pragma once
// What a score says about the true value of a position, shared by the midgame search and the endgame
// solver: Exact, or a Lower bound (the search failed high: the value is at least the score) or an Upper
// bound (failed low: the value is at most the score).
#include <cstdint>

namespace reversi {

enum class Bound : std::uint8_t { Exact, Lower, Upper };

// What a fail-soft score found with the window (alpha, beta) says: at most alpha, an upper bound; at least
// beta, a lower bound; between them, exact.
[[nodiscard]] constexpr Bound bound_of(int score, int alpha, int beta) noexcept {
    return score <= alpha ? Bound::Upper : (score >= beta ? Bound::Lower : Bound::Exact);
}

// bound_of for a score on the closed scale -max..max (the endgame's disc difference): a score at the end
// of the scale it failed towards is exact, since nothing lies beyond it (a wipeout found with the full
// window (-64, 64) fails high at 64: at least 64, so 64).
[[nodiscard]] constexpr Bound bound_on_scale(int score, int alpha, int beta, int max) noexcept {
    const Bound b = bound_of(score, alpha, beta);
    return (b == Bound::Lower && score >= max) || (b == Bound::Upper && score <= -max) ? Bound::Exact : b;
}

// The bound of the negated score (the other side's view): a lower bound becomes an upper one.
[[nodiscard]] constexpr Bound negated(Bound b) noexcept {
    return b == Bound::Lower ? Bound::Upper : (b == Bound::Upper ? Bound::Lower : b);
}

}  // namespace reversi
