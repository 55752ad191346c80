#include "engine/book/leaf_search.hpp"

#include <algorithm>
#include <thread>

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

ParallelLeafSearch::ParallelLeafSearch(int jobs, int threads, std::size_t hash_mib, const LeafSearch& leaf,
                                       const std::atomic<bool>& stop)
    : leaf_(leaf), stop_(stop) {
    for (int i = 0; i < std::max(jobs, 1); ++i) {
        searchers_.push_back(std::make_unique<Searcher>(hash_mib));
        use_engine_search_options(*searchers_.back(), threads);
    }
}

const std::string& ParallelLeafSearch::evaluation_status() const noexcept {
    return searchers_.front()->evaluation_status();
}

int ParallelLeafSearch::search(Searcher& searcher, const Position& pos) const {
    searcher.clear();
    return searched_evaluator(searcher, leaf_, stop_)(pos);
}

std::vector<int> ParallelLeafSearch::operator()(const std::vector<Position>& positions) {
    std::vector<int> values(positions.size());
    std::atomic<std::size_t> next{0};
    const auto work = [&](Searcher& searcher) {
        for (std::size_t i = next++; i < positions.size(); i = next++) values[i] = search(searcher, positions[i]);
    };
    const std::size_t helpers = std::min(searchers_.size(), positions.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t j = 1; j < helpers; ++j) threads.emplace_back(work, std::ref(*searchers_[j]));
        work(*searchers_.front());
    }
    return values;
}

}  // namespace reversi::book
