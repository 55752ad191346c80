#pragma once
// Random 8x8 positions with a given number of empty squares (random games from the start; positions
// where the side to move must pass are kept, finished games are skipped).
#include <cstdint>
#include <random>
#include <vector>

#include "engine/board/random_move.hpp"
#include "engine/board/variant.hpp"

namespace reversi::endgame_test {

inline std::vector<Position> positions_with_empties(int empties, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    while (static_cast<int>(out.size()) < count) {
        Position pos = start_position();
        while (!pos.is_over() && pos.empty_count() > empties) pos = play_random_move(pos, rng);
        if (!pos.is_over() && pos.empty_count() == empties) out.push_back(pos);
    }
    return out;
}

}  // namespace reversi::endgame_test
