#pragma once
// How a book's leaf values are searched, shared by `reversi-book build` and `learn` and by NBoard `learn`:
// the engine's own Searcher as it plays (NegaScout, the trained evaluation, Multi-ProbCut 73%, the evaluated
// move ordering) at a fixed depth, and an exact solve at `solve_empties` or fewer empties.
#include <atomic>

#include "engine/book/node_values.hpp"
#include "engine/search/searcher.hpp"

namespace reversi::book {

struct LeafSearch {
    int depth = 12;
    int solve_empties = 20;
};

// Sets the Searcher's options as the engine plays, with `threads` search threads.
void use_engine_search_options(Searcher& searcher, int threads);

// An evaluator searching each position with `searcher` (its options as they are) at `leaf`'s depth.
// `stop` ends a search early (its value is then not to be stored: the caller checks `stop`).
[[nodiscard]] PositionEvaluator searched_evaluator(Searcher& searcher, const LeafSearch& leaf,
                                                   const std::atomic<bool>& stop);

}  // namespace reversi::book
