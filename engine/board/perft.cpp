#include "engine/board/perft.hpp"

namespace reversi {

std::uint64_t perft(const Position& pos, int depth) noexcept {
    if (depth <= 0) return 1;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        if (pos.opponent_moves() == 0) return 1;  // game over before the horizon: one leaf
        return perft(pos.pass(), depth - 1);
    }
    if (depth == 1) return static_cast<std::uint64_t>(popcount(moves));  // bulk count
    std::uint64_t total = 0;
    for (int sq : squares(moves)) {
        total += perft(pos.play(sq), depth - 1);
    }
    return total;
}

}  // namespace reversi
