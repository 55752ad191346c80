#pragma once
// A hand-written midgame evaluation (a trained one comes later), in discs from the side to move's point
// of view, clamped to [-64, 64]. Terms, each as (mine - theirs):
//   mobility            legal moves                                        x 1
//   potential mobility  empty squares next to the other side's discs       x 1/4
//   corners             discs on the board's corners                       x 4
//   X-squares           discs diagonally next to an empty corner           x -2
//   C-squares           discs orthogonally next to an empty corner         x -1
//   stability           edge discs anchored to an own corner (never flip)  x 1
//   parity              +1 for the side to move when the empty count is odd
// At the end of the game the search uses the exact final score instead.
// The corners of a variant's board are its playable squares with no playable neighbour on one side
// horizontally and on one side vertically (a1/h1/a8/h8 on 8x8, b2/g2/b7/g7 on 6x6, ...).
#include "engine/board/position.hpp"
#include "engine/eval/evaluator.hpp"

namespace reversi {

struct BoardGeometry {
    Bitboard corners = 0;
    Bitboard x_squares = 0;  // diagonal neighbours of the corners
    Bitboard c_squares = 0;  // orthogonal neighbours of the corners
};

// Squares next to a set (8 directions, no wrap-around), excluding the set itself.
[[nodiscard]] constexpr Bitboard neighbours(Bitboard b) noexcept {
    const Bitboard left = (b >> 1) & kNotColumnH;   // one column towards a
    const Bitboard right = (b << 1) & kNotColumnA;  // one column towards h
    const Bitboard row = b | left | right;
    return (row | (row << 8) | (row >> 8)) & ~b;
}

[[nodiscard]] constexpr BoardGeometry board_geometry(Bitboard playable) noexcept {
    const Bitboard no_west = playable & ~((playable << 1) & kNotColumnA);
    const Bitboard no_east = playable & ~((playable >> 1) & kNotColumnH);
    const Bitboard no_north = playable & ~(playable << 8);
    const Bitboard no_south = playable & ~(playable >> 8);
    BoardGeometry g;
    g.corners = (no_west | no_east) & (no_north | no_south);
    const Bitboard orthogonal =
        ((g.corners << 1) & kNotColumnA) | ((g.corners >> 1) & kNotColumnH) | (g.corners << 8) | (g.corners >> 8);
    g.c_squares = orthogonal & playable & ~g.corners;
    g.x_squares = neighbours(g.corners) & playable & ~g.corners & ~orthogonal;
    return g;
}

class HeuristicEvaluator final : public Evaluator {
public:
    [[nodiscard]] int evaluate(const Position& pos) const noexcept override;
    [[nodiscard]] std::string_view name() const noexcept override { return "heuristic"; }
};

// Edge discs of `own` that can never be flipped: runs along the edges of the 8x8 board that start at a
// corner held by `own` (a simple lower bound of the stable discs; 0 on boards other than 8x8).
[[nodiscard]] int edge_stable_count(Bitboard own, Bitboard playable) noexcept;

}  // namespace reversi
