#pragma once
// Exact solvers for the last 1-4 empty squares: no move list, no hashing, squares passed explicitly.
// The last move is counted (its flips), never played. Fail-soft alpha-beta on the window (alpha, beta);
// `nodes` counts every position visited (the last-move positions included).
#include <cstdint>

#include "engine/board/bitboard.hpp"

namespace reversi::endgame {

// The number of discs P flips by playing x when x is the only empty square (every other square not in P
// is the opponent's): popcount(flips(P, ~(P | x), x)). With BMI2, four line reads (pext) and a 2 KiB
// table; otherwise through flips().
[[nodiscard]] int last_flip_count(Bitboard P, int x) noexcept;

// One empty square x; O is implied (every other square). Exact score.
[[nodiscard]] int solve_1(Bitboard P, int x, std::uint64_t& nodes) noexcept;
[[nodiscard]] int solve_2(Bitboard P, Bitboard O, int alpha, int beta, int x1, int x2, std::uint64_t& nodes) noexcept;
[[nodiscard]] int solve_3(Bitboard P, Bitboard O, int alpha, int beta, int x1, int x2, int x3,
                          std::uint64_t& nodes) noexcept;
// Four empties: sorted so that squares alone in their quadrant (odd parity) come first.
[[nodiscard]] int solve_4(Bitboard P, Bitboard O, int alpha, int beta, std::uint64_t& nodes) noexcept;

// Dispatches on the number of empties (0-4) of the position.
[[nodiscard]] int solve_small(Bitboard P, Bitboard O, int alpha, int beta, std::uint64_t& nodes) noexcept;

}  // namespace reversi::endgame
