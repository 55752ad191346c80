#pragma once
// The position a solve's root search starts from (the 8x8 solver's and the variant solver's).
#include <utility>

#include "engine/board/bitboard.hpp"

namespace reversi::endgame {

// The side to move's position, or the opponent's when that side must pass (sign -1, the window (alpha,
// beta) then negated and swapped); `over` when neither side can move (P and O as given).
struct SolveRoot {
    Bitboard P = 0;
    Bitboard O = 0;
    int sign = 1;
    int alpha = 0;
    int beta = 0;
    bool over = false;
    [[nodiscard]] constexpr bool passed() const noexcept { return sign < 0; }
};

// `can_move`, `other_can_move`: whether P, and O, has a legal move.
[[nodiscard]] constexpr SolveRoot solve_root(Bitboard P, Bitboard O, int alpha, int beta, bool can_move,
                                             bool other_can_move) noexcept {
    if (can_move) return SolveRoot{P, O, 1, alpha, beta, false};
    if (!other_can_move) return SolveRoot{P, O, 1, alpha, beta, true};
    return SolveRoot{O, P, -1, -beta, -alpha, false};
}

}  // namespace reversi::endgame
