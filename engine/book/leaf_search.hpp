#pragma once
// How a book's leaf values are searched, shared by `reversi-book build` and `learn` and by NBoard `learn`:
// the engine's own Searcher as it plays (NegaScout, the trained evaluation, Multi-ProbCut 73%, the evaluated
// move ordering) at a fixed depth, and an exact solve at `solve_empties` or fewer empties.
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

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

// Leaf searches on `jobs` threads at once, for `build`: one Searcher per job (with `threads` search
// threads; one is best, as the engine's search gains little from a second thread at book depths), the
// positions of a batch handed out in order. Every search starts from a cleared table, so that with one
// search thread a value depends only on its position: the values, and the book, do not depend on the
// number of jobs.
class ParallelLeafSearch {
public:
    ParallelLeafSearch(int jobs, int threads, std::size_t hash_mib, const LeafSearch& leaf,
                       const std::atomic<bool>& stop);

    // The values of `positions`, in their order (a BatchEvaluator).
    [[nodiscard]] std::vector<int> operator()(const std::vector<Position>& positions);

    [[nodiscard]] const std::string& evaluation_status() const noexcept;
    [[nodiscard]] int jobs() const noexcept { return static_cast<int>(searchers_.size()); }
    // The smallest of the searchers' tables in MiB (0: one got no memory and runs on the smallest table).
    [[nodiscard]] std::size_t hash_mib() const noexcept;

private:
    std::vector<std::unique_ptr<Searcher>> searchers_;
    std::vector<PositionEvaluator> evaluators_;  // searched_evaluator of each searcher
};

}  // namespace reversi::book
