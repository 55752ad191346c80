#pragma once
// Uniformly random legal moves, for random games: differential tests, calibration runs, benchmarks.
#include <cstdint>
#include <random>

#include "engine/board/position.hpp"

namespace reversi {

// A uniformly random legal move of the side to move (one draw from `rng`), or kPass when it has none
// (no draw).
[[nodiscard]] inline Move random_legal_move(const Position& pos, std::mt19937_64& rng) {
    const Bitboard moves = pos.moves();
    if (!moves) return kPass;
    int pick = static_cast<int>(rng() % static_cast<std::uint64_t>(popcount(moves)));
    for (int sq : squares(moves)) {
        if (pick-- == 0) return static_cast<Move>(sq);
    }
    return kPass;  // unreachable: pick < popcount(moves)
}

// The position after random_legal_move (its pass when the side has no move).
[[nodiscard]] inline Position play_random_move(const Position& pos, std::mt19937_64& rng) {
    const Move m = random_legal_move(pos, rng);
    return m == kPass ? pos.pass() : pos.play(m);
}

}  // namespace reversi
