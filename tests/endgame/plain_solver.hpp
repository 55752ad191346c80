#pragma once
// The plain solver every fast path of engine/endgame/ is checked against: negamax with fail-hard
// alpha-beta, moves in square order, no table, no ordering, no special cases; written only from
// Position::moves(), Position::play() (portable flips) and Position::final_score(). Deliberately
// independent of the code under test.
#include <cstdint>

#include "engine/board/position.hpp"

namespace reversi::endgame_test {

inline Position play_portable(const Position& pos, int sq) {
    const Bitboard f = flips_portable(pos.player, pos.opponent, sq);
    return Position{pos.opponent ^ f, pos.player ^ f ^ square_bit(sq), pos.playable, opposite(pos.side), pos.rule};
}

inline int plain_solve(const Position& pos, int alpha, int beta, std::uint64_t& nodes) {
    ++nodes;
    const Bitboard moves = pos.moves();
    if (!moves) {
        if (!pos.opponent_moves()) return pos.final_score();
        return -plain_solve(pos.pass(), -beta, -alpha, nodes);
    }
    for (int sq : squares(moves)) {
        const int score = -plain_solve(play_portable(pos, sq), -beta, -alpha, nodes);
        if (score >= beta) return beta;
        if (score > alpha) alpha = score;
    }
    return alpha;
}

inline int plain_solve(const Position& pos) {
    std::uint64_t nodes = 0;
    return plain_solve(pos, -65, 65, nodes);
}

// True when the exact value of `pos` is `score`: a fail-hard search on the window (score - 1, score + 1)
// returns score only then (much cheaper than a full-window solve).
inline bool plain_confirms(const Position& pos, int score) {
    std::uint64_t nodes = 0;
    return plain_solve(pos, score - 1, score + 1, nodes) == score;
}

}  // namespace reversi::endgame_test
