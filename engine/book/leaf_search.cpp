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
                                       const std::atomic<bool>& stop) {
    for (int i = 0; i < std::max(jobs, 1); ++i) {
        searchers_.push_back(std::make_unique<Searcher>(hash_mib));
        use_engine_search_options(*searchers_.back(), threads);
        evaluators_.push_back(searched_evaluator(*searchers_.back(), leaf, stop));
    }
}

std::size_t ParallelLeafSearch::hash_mib() const noexcept {
    std::size_t smallest = searchers_.front()->hash_size();
    for (const auto& s : searchers_) smallest = std::min(smallest, s->hash_size());
    return smallest;
}

const std::string& ParallelLeafSearch::evaluation_status() const noexcept {
    return searchers_.front()->evaluation_status();
}

std::vector<int> ParallelLeafSearch::operator()(const std::vector<Position>& positions) {
    std::vector<int> values(positions.size());
    std::atomic<std::size_t> next{0};
    const auto work = [&](std::size_t job) {
        for (std::size_t i = next++; i < positions.size(); i = next++) {
            searchers_[job]->clear();
            values[i] = evaluators_[job](positions[i]);
        }
    };
    const std::size_t jobs = std::min(searchers_.size(), positions.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t j = 1; j < jobs; ++j) threads.emplace_back(work, j);
        work(0);
    }
    return values;
}

}  // namespace reversi::book
