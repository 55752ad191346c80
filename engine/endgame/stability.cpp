#include "engine/endgame/stability.hpp"

#include <array>
#include <bit>
#include <cstdint>
#ifdef __BMI2__
#include <immintrin.h>
#endif

namespace reversi::endgame {

namespace {

// Plays `square` for `mover` on an 8-square line, flipping along the line only (a move on an edge can
// be legal through the other directions, so a move that flips nothing on the line is allowed too).
constexpr void play_on_line(unsigned& mover, unsigned& other, int square) noexcept {
    unsigned flipped = 0;
    for (const int step : {1, -1}) {
        unsigned run = 0;
        int s = square + step;
        while (s >= 0 && s < 8 && (other >> s & 1u)) {
            run |= 1u << s;
            s += step;
        }
        if (s >= 0 && s < 8 && (mover >> s & 1u)) flipped |= run;
    }
    mover |= flipped | (1u << square);
    other &= ~flipped;
}

// Fullest lines first: a move fills one more square, so every line a move reaches is already in the table.
std::array<std::uint8_t, 1 << 16> build_edge_table() noexcept {
    std::array<std::uint8_t, 1 << 16> table{};
    for (int filled = 8; filled >= 0; --filled) {
        for (unsigned a = 0; a < 256; ++a) {
            for (unsigned b = 0; b < 256; ++b) {
                if ((a & b) != 0 || std::popcount(a | b) != filled) continue;
                unsigned result = a | b;  // every disc, until a move changes it
                const unsigned empty = ~(a | b) & 0xffu;
                for (int sq = 0; sq < 8 && result; ++sq) {
                    if (!(empty >> sq & 1u)) continue;
                    for (int side = 0; side < 2; ++side) {
                        unsigned na = a;
                        unsigned nb = b;
                        if (side == 0) {
                            play_on_line(na, nb, sq);
                        } else {
                            play_on_line(nb, na, sq);
                        }
                        const unsigned unchanged = ~((na ^ a) | (nb ^ b));
                        result &= unchanged & table[na << 8 | nb];
                    }
                }
                table[a << 8 | b] = static_cast<std::uint8_t>(result);
            }
        }
    }
    return table;
}

// Bit i of `line` to square (i, column).
inline Bitboard line_to_column(unsigned line, int column) noexcept {
#ifdef __BMI2__
    return _pdep_u64(line, 0x0101010101010101ULL << column);
#else
    // Bits 4-7 to the upper half, then each group of two to rows two apart, then each bit to its row
    // (the shifted groups never overlap: no carries).
    Bitboard b = line & 0xffu;
    b = (b | b << 28) & 0x0000000f0000000fULL;
    b = (b | b << 14) & 0x0003000300030003ULL;
    b = (b | b << 7) & 0x0101010101010101ULL;
    return b << column;
#endif
}

// `from` and the squares it reaches by repeated steps of |Shift| squares, up the board for a positive
// Shift and down for a negative one, never wrapping across the edge that `mask` excludes after a step
// (Kogge-Stone: steps of 1, 2 and 4).
template <int Shift>
constexpr Bitboard spread(Bitboard from, Bitboard mask) noexcept {
    constexpr auto step = [](Bitboard b, int n) { return Shift > 0 ? b << (Shift * n) : b >> (-Shift * n); };
    from |= step(from, 1) & mask;
    mask &= step(mask, 1);
    from |= step(from, 2) & mask;
    mask &= step(mask, 2);
    return from | (step(from, 4) & mask);
}

}  // namespace

FullLines full_lines(Bitboard occupied) noexcept {
    FullLines f;
    if (popcount(~occupied) <= kFewEmpties) {
        // Few empty squares: the lines through each of them are the lines that are not full.
        Bitboard open[4] = {0, 0, 0, 0};
        for (int sq : squares(~occupied)) {
            const auto& lines = kLinesThrough[static_cast<std::size_t>(sq)];
            open[0] |= lines[0];
            open[1] |= lines[1];
            open[2] |= lines[2];
            open[3] |= lines[3];
        }
        f.horizontal = ~open[0];
        f.vertical = ~open[1];
        f.diagonal = ~open[2];
        f.anti_diagonal = ~open[3];
        return f;
    }
    Bitboard h = occupied;  // bit 8r: row r is full
    h &= h >> 4;
    h &= h >> 2;
    h &= h >> 1;
    f.horizontal = (h & 0x0101010101010101ULL) * 0xff;
    Bitboard v = occupied;  // bits 0-7: the column is full
    v &= v >> 32;
    v &= v >> 16;
    v &= v >> 8;
    f.vertical = (v & 0xff) * 0x0101010101010101ULL;
    // A diagonal is full where none of its empty squares reaches: the empty squares spread both ways.
    const Bitboard empty = ~occupied;
    f.diagonal = ~(spread<9>(empty, kNotColumnA) | spread<-9>(empty, kNotColumnH));
    f.anti_diagonal = ~(spread<7>(empty, kNotColumnH) | spread<-7>(empty, kNotColumnA));
    return f;
}

namespace detail {
const std::array<std::uint8_t, 1 << 16> kEdgeStable = build_edge_table();
}  // namespace detail

Bitboard stable_discs(Bitboard owner, Bitboard other) noexcept {
    using detail::column_line;
    using detail::edge_line_stable;
    Bitboard stable = 0;
    // Edges: row 1, row 8, column a, column h.
    stable |= static_cast<Bitboard>(edge_line_stable(owner & 0xff, other & 0xff));
    stable |= static_cast<Bitboard>(edge_line_stable(owner >> 56, other >> 56)) << 56;
    stable |= line_to_column(edge_line_stable(column_line(owner, 0), column_line(other, 0)), 0);
    stable |= line_to_column(edge_line_stable(column_line(owner, 7), column_line(other, 7)), 7);
    stable &= owner;

    const FullLines f = full_lines(owner | other);
    stable |= owner & f.horizontal & f.vertical & f.diagonal & f.anti_diagonal;
    if (!stable) return 0;

    for (;;) {
        const Bitboard h = f.horizontal | ((stable << 1) & kNotColumnA) | ((stable >> 1) & kNotColumnH);
        const Bitboard v = f.vertical | (stable << 8) | (stable >> 8);
        const Bitboard d = f.diagonal | ((stable << 9) & kNotColumnA) | ((stable >> 9) & kNotColumnH);
        const Bitboard a = f.anti_diagonal | ((stable << 7) & kNotColumnH) | ((stable >> 7) & kNotColumnA);
        const Bitboard next = stable | (owner & h & v & d & a);
        if (next == stable) return stable;
        stable = next;
    }
}

}  // namespace reversi::endgame
