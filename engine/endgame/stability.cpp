#include "engine/endgame/stability.hpp"

#include <array>
#include <bit>
#include <cstdint>

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

// Table over (black line, white line): the discs of both colours that no sequence of moves changes.
class EdgeTable {
public:
    EdgeTable() {
        done_.fill(false);
        for (unsigned a = 0; a < 256; ++a) {
            for (unsigned b = 0; b < 256; ++b) {
                if ((a & b) == 0) (void)compute(a, b);
            }
        }
    }
    [[nodiscard]] std::uint8_t stable(unsigned a, unsigned b) const noexcept { return table_[a << 8 | b]; }

private:
    std::uint8_t compute(unsigned a, unsigned b) {
        const unsigned index = a << 8 | b;
        if (done_[index]) return table_[index];
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
                result &= unchanged & compute(na, nb);
            }
        }
        table_[index] = static_cast<std::uint8_t>(result);
        done_[index] = true;
        return table_[index];
    }
    std::array<std::uint8_t, 65536> table_{};
    std::array<bool, 65536> done_{};
};

const EdgeTable& edge_table() {
    static const EdgeTable table;
    return table;
}

// Bits of column 0 / 7 of the board gathered into an 8-bit line (row i -> bit i) and back.
constexpr unsigned column_to_line(Bitboard b, int column) noexcept {
    return static_cast<unsigned>((((b >> column) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56);
}
// Bit i of `line` to square (i, column): bits 4-7 to the upper half, then each group of two to rows
// two apart, then each bit to its row (the shifted groups never overlap: no carries).
constexpr Bitboard line_to_column(unsigned line, int column) noexcept {
    Bitboard b = line & 0xffu;
    b = (b | b << 28) & 0x0000000f0000000fULL;
    b = (b | b << 14) & 0x0003000300030003ULL;
    b = (b | b << 7) & 0x0101010101010101ULL;
    return b << column;
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

unsigned edge_stable(unsigned owner, unsigned other) noexcept { return edge_table().stable(owner, other) & owner; }

int edge_stability(Bitboard owner, Bitboard other) noexcept {
    const EdgeTable& table = edge_table();
    const auto stable = [&table](unsigned own_line, unsigned other_line) {
        return std::popcount(table.stable(own_line, other_line) & own_line);
    };
    return stable(static_cast<unsigned>(owner & 0xff), static_cast<unsigned>(other & 0xff)) +
           stable(static_cast<unsigned>(owner >> 56), static_cast<unsigned>(other >> 56)) +
           stable(column_to_line(owner, 0), column_to_line(other, 0)) +
           stable(column_to_line(owner, 7), column_to_line(other, 7));
}

Bitboard stable_discs(Bitboard owner, Bitboard other) noexcept {
    const EdgeTable& table = edge_table();
    Bitboard stable = 0;
    // Edges: row 1, row 8, column a, column h.
    stable |= static_cast<Bitboard>(table.stable(owner & 0xff, other & 0xff));
    stable |= static_cast<Bitboard>(table.stable(owner >> 56, other >> 56)) << 56;
    stable |= line_to_column(table.stable(column_to_line(owner, 0), column_to_line(other, 0)), 0);
    stable |= line_to_column(table.stable(column_to_line(owner, 7), column_to_line(other, 7)), 7);
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
