#pragma once
// A small exact endgame solver for building training targets: plain negamax alpha-beta, fastest-first
// move ordering (fewest opponent replies) above 6 empties, no hash table. It is a stopgap until the
// dedicated solver of engine/endgame/ lands; the target builder takes any solver through ExactSolver
// (training_set.hpp). Meant for positions with up to ~14 empties (the time grows ~x3 per empty).
// Checked against a plain minimax in tests/eval/.
#include <cstdint>

#include "engine/board/position.hpp"

namespace reversi::eval {

struct SolveResult {
    int score = 0;               // exact final disc difference for the side to move (empties to the winner)
    std::uint64_t nodes = 0;
};

// Standard 8x8 rule (empties to the winner); the playable mask is ignored.
[[nodiscard]] SolveResult solve_small(const Position& pos) noexcept;

}  // namespace reversi::eval
