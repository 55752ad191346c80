#pragma once
// A lower bound on the stable discs of one side (discs that can never be flipped again), for stability
// cutoffs: the side to move scores at most 64 - 2 * stable_discs(opponent, player).
//   1. edges: a table over the 3^8 configurations of an edge line gives the discs that no sequence of
//      moves on that line can flip (filled at start-up);
//   2. full lines: a disc whose four lines (row, column, both diagonals) are full cannot be flipped;
//   3. propagation: a disc is stable when, in each of the four line directions, its line is full or one
//      of its two neighbours on that line is a stable disc of the same colour.
#include <array>
#include <bit>
#include <cstdint>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "engine/board/bitboard.hpp"
#include "engine/endgame/board_ops.hpp"

namespace reversi::endgame {

// The squares whose line in each direction is full (every square of it occupied), one mask per
// direction: rows, columns, diagonals (a1-h8 direction) and anti-diagonals (h1-a8 direction).
struct FullLines {
    Bitboard horizontal = 0;
    Bitboard vertical = 0;
    Bitboard diagonal = 0;
    Bitboard anti_diagonal = 0;
    friend bool operator==(const FullLines&, const FullLines&) = default;
};
// With at most kFewEmpties empty squares, the lines through each of them; else branch-free: row and
// column folds, and the empty squares spread along each diagonal (the tests check both against a
// square-by-square reference).
inline constexpr int kFewEmpties = 6;
[[nodiscard]] FullLines full_lines(Bitboard occupied) noexcept;

// Stable discs of `owner` (the other discs are `other`); every returned disc belongs to owner.
[[nodiscard]] Bitboard stable_discs(Bitboard owner, Bitboard other) noexcept;

// The stability cutoff of a node where P is to move and O is the opponent: P scores at most
// 64 - 2 * (O's stable discs). True, with that bound in `upper`, when the bound is at most alpha. The
// stable discs are computed only when the cut is possible at all (alpha >= 64 - 2 * O's discs).
[[nodiscard]] inline bool stability_cutoff(Bitboard P, Bitboard O, int alpha, int& upper) noexcept {
    if (alpha < kScoreMax - 2 * popcount(O)) return false;
    upper = kScoreMax - 2 * popcount(stable_discs(O, P));
    return upper <= alpha;
}

namespace detail {
// The edge table: entry owner << 8 | other (the two sides' discs on one 8-square line, disjoint) holds
// the discs of both sides that no sequence of moves on that line can flip. Filled once at start-up
// (stability.cpp), read-only after.
extern const std::array<std::uint8_t, 1 << 16> kEdgeStable;

[[nodiscard]] inline unsigned edge_line_stable(unsigned owner, unsigned other) noexcept {
    return kEdgeStable[owner << 8 | other];
}

// Column 0 or 7 of the board as an 8-bit line (row i -> bit i).
[[nodiscard]] inline unsigned column_line(Bitboard b, int column) noexcept {
#ifdef __BMI2__
    return static_cast<unsigned>(_pext_u64(b, 0x0101010101010101ULL << column));
#else
    return static_cast<unsigned>((((b >> column) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
#endif
}
}  // namespace detail

// Stable discs of `owner` on one 8-square line (bit i = i-th square), from the edge table.
[[nodiscard]] inline unsigned edge_stable(unsigned owner, unsigned other) noexcept {
    return detail::edge_line_stable(owner, other) & owner;
}

// The number of `owner`'s discs on the four edges that the edge table proves stable, the corners counted
// on both of their edges (a move-ordering term: one table access for each of the four edge lines).
[[nodiscard]] inline int edge_stability(Bitboard owner, Bitboard other) noexcept {
    using detail::column_line;
    return std::popcount(edge_stable(static_cast<unsigned>(owner & 0xff), static_cast<unsigned>(other & 0xff))) +
           std::popcount(edge_stable(static_cast<unsigned>(owner >> 56), static_cast<unsigned>(other >> 56))) +
           std::popcount(edge_stable(column_line(owner, 0), column_line(other, 0))) +
           std::popcount(edge_stable(column_line(owner, 7), column_line(other, 7)));
}

}  // namespace reversi::endgame
