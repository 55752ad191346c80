#pragma once
// Accuracy of fixed-depth searches that use a given evaluation at the horizon, on OBF positions with
// exact move scores: |search value - exact value| at the root, and the disc loss of the chosen move.
#include <vector>

#include <cstdint>

#include "engine/board/notation.hpp"
#include "engine/eval/evaluator.hpp"
#include "engine/search/run_algorithm.hpp"
#include "engine/search/transposition_table.hpp"

namespace reversi::train {

struct SearchAccuracy {
    double value_mae = 0;  // discs
    double move_loss = 0;  // discs
    double nodes = 0;      // mean nodes per search
    long long positions = 0;
};

struct FixedDepthSearch {
    RootSearch root;
    std::uint64_t nodes = 0;
};

// One fixed-depth NegaScout search (engine/search/algorithms.hpp) from `pos` with the full window, the
// project's Normal move ordering and `tt` (not cleared: the caller decides what the table keeps).
[[nodiscard]] FixedDepthSearch fixed_depth_negascout(const Position& pos, const Evaluator& evaluator, int depth,
                                                     TranspositionTable& tt);

// NegaScout (engine/search/algorithms.hpp) with the project's Normal move ordering and a 16 MiB
// transposition table cleared before each position, to a fixed depth (no iterative deepening).
[[nodiscard]] SearchAccuracy measure_search(const std::vector<ObfEntry>& entries, const Evaluator& evaluator,
                                            int depth);

}  // namespace reversi::train
