#include "engine/book/leaf_search.hpp"

namespace reversi::book {

void use_engine_search_options(Searcher& searcher, int threads) {
    SearchOptions options;
    options.selectivity = kEngineSelectivityPercent;
    options.ordering = kEngineOrdering;
    options.threads = threads;
    searcher.set_options(options);
}

PositionEvaluator searched_evaluator(Searcher& searcher, const LeafSearch& leaf, const std::atomic<bool>& stop) {
    return [&searcher, leaf, &stop](const Position& pos) {
        SearchLimits limits;
        limits.depth = leaf.depth;
        limits.solve = pos.empty_count() <= leaf.solve_empties;
        return searcher.search(pos, limits, {}, stop).score;
    };
}

}  // namespace reversi::book
