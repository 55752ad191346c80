#pragma once
// Accuracy of fixed-depth searches that use a given evaluation at the horizon, on OBF positions with
// exact move scores: |search value - exact value| at the root, and the disc loss of the chosen move.
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/eval/evaluator.hpp"

namespace reversi::train {

struct SearchAccuracy {
    double value_mae = 0;   // discs
    double move_loss = 0;   // discs
    double nodes = 0;       // mean nodes per search
    long long positions = 0;
};

// NegaScout (engine/search/algorithms.hpp) with the project's Normal move ordering and a 16 MiB
// transposition table cleared before each position, to a fixed depth (no iterative deepening).
[[nodiscard]] SearchAccuracy measure_search(const std::vector<ObfEntry>& entries, const Evaluator& evaluator, int depth);

}  // namespace reversi::train
