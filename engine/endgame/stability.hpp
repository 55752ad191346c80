#pragma once
// A lower bound on the stable discs of one side (discs that can never be flipped again), for stability
// cutoffs: the side to move scores at most 64 - 2 * stable_discs(opponent, player).
//   1. edges: a table over the 3^8 configurations of an edge line gives the discs that no sequence of
//      moves on that line can flip (computed once, at first use);
//   2. full lines: a disc whose four lines (row, column, both diagonals) are full cannot be flipped;
//   3. propagation: a disc is stable when, in each of the four line directions, its line is full or one
//      of its two neighbours on that line is a stable disc of the same colour.
#include "engine/board/bitboard.hpp"

namespace reversi::endgame {

// Stable discs of `owner` (the other discs are `other`); every returned disc belongs to owner.
[[nodiscard]] Bitboard stable_discs(Bitboard owner, Bitboard other) noexcept;

// Stable discs of `owner` on one 8-square line (bit i = i-th square), from the edge table.
[[nodiscard]] unsigned edge_stable(unsigned owner, unsigned other) noexcept;

// The number of `owner`'s discs on the four edges that the edge table proves stable, the corners counted
// on both of their edges (a move-ordering term: one table access for the four edge_stable lines).
[[nodiscard]] int edge_stability(Bitboard owner, Bitboard other) noexcept;

}  // namespace reversi::endgame
