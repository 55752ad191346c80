#pragma once
// Small helpers of the exact solver on raw (player, opponent) bitboards of the standard 8x8 board:
// final scores, quadrant parity, the static square classes of move ordering, the squares next to each
// square and a hash of the two bitboards.
#include <array>
#include <cstdint>

#include "engine/board/bitboard.hpp"
#include "engine/board/moves.hpp"
#include "engine/eval/heuristic.hpp"

namespace reversi::endgame {

inline constexpr int kScoreMax = 64;
// Strictly outside every final score: the solvers' open windows and their best-so-far start.
inline constexpr int kInfinity = kScoreMax + 1;

// Final score of a finished game for the player owning P with `empties` empty squares left: disc
// difference, empty squares counted for the winner.
[[nodiscard]] constexpr int final_score(Bitboard P, int empties) noexcept {
    const int diff = 2 * popcount(P) + empties - 64;
    if (diff > 0) return diff + empties;
    if (diff < 0) return diff - empties;
    return 0;
}

// The four 4x4 quadrants (a1-d4, e1-h4, a5-d8, e5-h8).
inline constexpr std::array<Bitboard, 4> kQuadrants = {0x000000000f0f0f0fULL, 0x00000000f0f0f0f0ULL,
                                                       0x0f0f0f0f00000000ULL, 0xf0f0f0f000000000ULL};

// The four lines through each square, the square included: row, column, diagonal (a1-h8 direction) and
// anti-diagonal, each the rays of moves.hpp in opposite directions (0-3 and 4-7).
inline constexpr std::array<std::array<Bitboard, 4>, 64> kLinesThrough = [] {
    std::array<std::array<Bitboard, 4>, 64> out{};
    for (int sq = 0; sq < 64; ++sq) {
        for (int l = 0; l < 4; ++l)
            out[sq][l] = reversi::detail::kRays[l][sq] | reversi::detail::kRays[l + 4][sq] | square_bit(sq);
    }
    return out;
}();

// The union of the quadrants holding an odd number of empty squares. The parities are folded together
// (rows 0-3 onto row 0 and rows 4-7 onto row 4, then columns 0-3 onto column 0 and 4-7 onto column 4), so
// that squares a1, e1, a5 and e5 hold their quadrants' parities; a multiply by the a1 quadrant spreads
// each over its quadrant (the four products never overlap: no carries).
[[nodiscard]] constexpr Bitboard odd_quadrants(Bitboard empties) noexcept {
    Bitboard x = empties ^ (empties >> 8);
    x ^= x >> 16;
    x ^= x >> 1;
    x ^= x >> 2;
    return (x & 0x0000001100000011ULL) * kQuadrants[0];
}

// The squares in classes of like squares, in a common static order for trying moves (corners first, then
// the squares near the centre, the edges' middle squares, and the squares next to the corners last):
// (a, b) are a square's distances to its two nearest edges, smaller first. The ordering's pattern
// searches try their moves in this order (FFO #40-#47 -0.8 % nodes, #48-#52 -0.9 %, the same time); in
// shallow() and solve_4() within the parity groups it saved 0.6 % more nodes but cost 6-19 % time.
inline constexpr std::array<Bitboard, 10> kSquareClasses = [] {
    constexpr std::array<std::array<int, 2>, 10> kOrder = {
        {{0, 0}, {2, 3}, {2, 2}, {0, 2}, {0, 3}, {1, 3}, {1, 2}, {0, 1}, {1, 1}, {3, 3}}};
    std::array<Bitboard, 10> out{};
    for (int sq = 0; sq < 64; ++sq) {
        const int r = sq / 8 < 4 ? sq / 8 : 7 - sq / 8;
        const int c = sq % 8 < 4 ? sq % 8 : 7 - sq % 8;
        const int a = r < c ? r : c;
        const int b = r < c ? c : r;
        for (std::size_t k = 0; k < kOrder.size(); ++k) {
            if (kOrder[k][0] == a && kOrder[k][1] == b) out[k] |= square_bit(sq);
        }
    }
    return out;
}();

// Writes the squares of `b` to `out` class by class (kSquareClasses order); returns how many.
inline int class_ordered_squares(Bitboard b, std::array<int, 64>& out) noexcept {
    int n = 0;
    for (const Bitboard c : kSquareClasses) {
        for (int s : squares(b & c)) out[static_cast<std::size_t>(n++)] = s;
    }
    return n;
}

// The squares next to each square (8 directions, no wrap-around). A move on x flips something only when
// an opponent disc is next to x: the last-empties solvers test this before computing the flips.
inline constexpr std::array<Bitboard, 64> kNeighbourSquares = [] {
    std::array<Bitboard, 64> n{};
    for (int sq = 0; sq < 64; ++sq) n[static_cast<std::size_t>(sq)] = neighbours(square_bit(sq));
    return n;
}();

// flips(P, O, x), skipping the computation when no disc of O is next to x (then there is nothing to flip).
[[nodiscard]] inline Bitboard flips_if_adjacent(Bitboard P, Bitboard O, int x) noexcept {
    return (kNeighbourSquares[static_cast<std::size_t>(x)] & O) ? flips_from_rays(P, O, x) : 0;
}

// 64-bit mix of the two bitboards (transposition-table key).
[[nodiscard]] constexpr std::uint64_t hash_discs(Bitboard P, Bitboard O) noexcept {
    std::uint64_t h = P * 0x9e3779b97f4a7c15ULL;
    h ^= std::rotl(O * 0xc2b2ae3d27d4eb4fULL, 29);
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return h;
}

// Opponent reply count weighted for ordering: corners count twice (a corner reply is worse for us).
[[nodiscard]] constexpr int weighted_mobility(Bitboard moves) noexcept {
    return popcount(moves) + popcount(moves & kCorners);
}

}  // namespace reversi::endgame
