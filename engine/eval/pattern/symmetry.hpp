#pragma once
// The 8 symmetries of the square board (the dihedral group D4) on squares and on bitboards.
// A symmetry g (0..7) maps the square (column c, row r) as follows, in this order:
//   bit 2 of g: transpose (c, r) -> (r, c)   (reflection in the a1-h8 diagonal)
//   bit 0 of g: mirror the columns  c -> 7 - c
//   bit 1 of g: flip the rows       r -> 7 - r
// transform(g, b) moves every disc of b from square s to map_square(g, s). The fast bitboard
// transforms are checked square by square against map_square in tests/eval/.
#include <array>

#include "engine/board/bitboard.hpp"

namespace reversi::eval {

inline constexpr int kSymmetryCount = 8;

[[nodiscard]] constexpr int map_square(int g, int square) noexcept {
    int c = column_of(square);
    int r = row_of(square);
    if (g & 4) {
        const int t = c;
        c = r;
        r = t;
    }
    if (g & 1) c = 7 - c;
    if (g & 2) r = 7 - r;
    return make_square(c, r);
}

// The square s with map_square(g, s) == square.
[[nodiscard]] constexpr int unmap_square(int g, int square) noexcept {
    for (int s = 0; s < 64; ++s) {
        if (map_square(g, s) == square) return s;
    }
    return -1;
}

[[nodiscard]] constexpr Bitboard flip_rows(Bitboard b) noexcept {  // r -> 7 - r
    return __builtin_bswap64(b);
}

[[nodiscard]] constexpr Bitboard mirror_columns(Bitboard b) noexcept {  // c -> 7 - c
    constexpr Bitboard k1 = 0x5555555555555555ULL;
    constexpr Bitboard k2 = 0x3333333333333333ULL;
    constexpr Bitboard k4 = 0x0f0f0f0f0f0f0f0fULL;
    b = ((b >> 1) & k1) | ((b & k1) << 1);
    b = ((b >> 2) & k2) | ((b & k2) << 2);
    b = ((b >> 4) & k4) | ((b & k4) << 4);
    return b;
}

[[nodiscard]] constexpr Bitboard transpose(Bitboard b) noexcept {  // (c, r) -> (r, c)
    constexpr Bitboard k1 = 0x5500550055005500ULL;
    constexpr Bitboard k2 = 0x3333000033330000ULL;
    constexpr Bitboard k4 = 0x0f0f0f0f00000000ULL;
    Bitboard t = k4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = k2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = k1 & (b ^ (b << 7));
    b ^= t ^ (t >> 7);
    return b;
}

[[nodiscard]] constexpr Bitboard transform(int g, Bitboard b) noexcept {
    if (g & 4) b = transpose(b);
    if (g & 1) b = mirror_columns(b);
    if (g & 2) b = flip_rows(b);
    return b;
}

}  // namespace reversi::eval
