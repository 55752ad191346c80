#pragma once
// A deliberately simple square-by-square Othello implementation: the reference that the bitboard
// move generator and flips are checked against. Walks each of the 8 directions one square at a time.
#include "engine/board/position.hpp"

namespace reversi::testing {

Bitboard reference_flips(const Position& pos, int square);
Bitboard reference_moves(const Position& pos);  // respects pos.playable

}  // namespace reversi::testing
