#include "tests/support/reference_board.hpp"

namespace reversi::testing {

Bitboard reference_flips(const Position& pos, int square) {
    const auto occupied = [&](int c, int r, Bitboard who) { return (who >> (r * 8 + c)) & 1; };
    if (occupied(square % 8, square / 8, pos.player | pos.opponent)) return 0;
    Bitboard result = 0;
    for (int dc = -1; dc <= 1; ++dc) {
        for (int dr = -1; dr <= 1; ++dr) {
            if (dc == 0 && dr == 0) continue;
            Bitboard line = 0;
            int c = square % 8 + dc, r = square / 8 + dr;
            while (c >= 0 && c < 8 && r >= 0 && r < 8 && occupied(c, r, pos.opponent)) {
                line |= Bitboard{1} << (r * 8 + c);
                c += dc;
                r += dr;
            }
            if (line && c >= 0 && c < 8 && r >= 0 && r < 8 && occupied(c, r, pos.player)) result |= line;
        }
    }
    return result;
}

Bitboard reference_moves(const Position& pos) {
    Bitboard moves = 0;
    for (int sq = 0; sq < 64; ++sq) {
        if (((pos.playable >> sq) & 1) && reference_flips(pos, sq) != 0) moves |= Bitboard{1} << sq;
    }
    return moves;
}

}  // namespace reversi::testing
