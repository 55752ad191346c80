#include "engine/eval/heuristic.hpp"

#include <algorithm>
#include <array>

namespace reversi {

namespace {

constexpr BoardGeometry kFullBoard = board_geometry(~Bitboard{0});
static_assert(kFullBoard.corners == kCorners);
static_assert(popcount(kFullBoard.x_squares) == 4 && popcount(kFullBoard.c_squares) == 8);

// The corner squares of the 8x8 board and, for each, the two edge directions (square steps).
struct EdgeRun {
    int corner;
    int step;
};
constexpr std::array<EdgeRun, 8> kEdgeRuns = {{{0, 1}, {0, 8}, {7, -1}, {7, 8}, {56, 1}, {56, -8}, {63, -1}, {63, -8}}};

}  // namespace

int edge_stable_count(Bitboard own, Bitboard playable) noexcept {
    if (playable != ~Bitboard{0}) return 0;
    Bitboard stable = 0;
    for (const auto& run : kEdgeRuns) {
        int sq = run.corner;
        for (int i = 0; i < 8 && (own & square_bit(sq)); ++i, sq += run.step) stable |= square_bit(sq);
    }
    return popcount(stable);
}

int HeuristicEvaluator::evaluate(const Position& pos) const noexcept {
    const Bitboard P = pos.player;
    const Bitboard O = pos.opponent;
    const Bitboard empty = pos.empties();
    const BoardGeometry g = pos.playable == ~Bitboard{0} ? kFullBoard : board_geometry(pos.playable);

    // Everything in quarter discs.
    int score = 4 * (popcount(pos.moves()) - popcount(pos.opponent_moves()));
    score += popcount(neighbours(O) & empty) - popcount(neighbours(P) & empty);
    score += 16 * (popcount(P & g.corners) - popcount(O & g.corners));
    const Bitboard empty_corners = g.corners & empty;
    const Bitboard risky_x = neighbours(empty_corners) & g.x_squares;
    const Bitboard risky_c = neighbours(empty_corners) & g.c_squares;
    score -= 8 * (popcount(P & risky_x) - popcount(O & risky_x));
    score -= 4 * (popcount(P & risky_c) - popcount(O & risky_c));
    score += 4 * (edge_stable_count(P, pos.playable) - edge_stable_count(O, pos.playable));
    if (popcount(empty) & 1) score += 4;
    return std::clamp(score / 4, -64, 64);
}

}  // namespace reversi
