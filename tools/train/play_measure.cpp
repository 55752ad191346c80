#include "tools/train/play_measure.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>

#include "engine/search/searcher.hpp"
#include "protocol/time/time_manager.hpp"

namespace reversi::train {

namespace {

// The searcher as the settings ask: its weights, one thread, the evaluation, selectivity and ordering.
Expected<bool> set_up(Searcher& searcher, const PlaySettings& settings) {
    if (!settings.weights.empty()) {
        auto loaded = searcher.load_weights(settings.weights);
        if (!loaded) return loaded.error();
    }
    SearchOptions options;
    options.threads = 1;
    options.evaluation = settings.evaluation;
    options.selectivity = settings.selectivity;
    options.ordering = settings.ordering;
    searcher.set_options(options);
    return true;
}

// The limits of one position's search: the depth, or the engine's mapping of "go movetime MS" to its soft
// and hard limits.
SearchLimits limits_for(const PlaySettings& settings, const Position& position) {
    SearchLimits limits;
    limits.depth = settings.depth;
    if (settings.movetime_ms) {
        timing::ClockState clock;
        clock.movetime_ms = *settings.movetime_ms;
        clock.empties = position.empty_count();
        const auto time = timing::plan_move_time(clock);
        limits.soft_time = time.soft;
        limits.hard_time = time.hard;
    }
    return limits;
}

void add_choice(PlayQuality& q, double loss, const SearchResult& r) {
    q.loss += loss;
    q.max_loss = std::max(q.max_loss, loss);
    q.best_chosen += loss == 0 ? 1 : 0;
    q.exact += r.exact ? 1 : 0;
    q.depth += r.depth;
    q.nodes += r.nodes;
    ++q.positions;
}

}  // namespace

Expected<PlayQuality> measure_play(const std::vector<ObfEntry>& entries, const PlaySettings& settings,
                                   const std::string& label) {
    Searcher searcher(settings.hash_mib);
    if (auto ready = set_up(searcher, settings); !ready) return ready.error();
    PlayQuality q;
    const std::atomic<bool> stop{false};
    const SearchCallbacks callbacks;
    auto last_report = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const ObfEntry& entry = entries[i];
        const auto best = entry.best_score();
        if (!best || entry.move_scores.empty()) continue;
        const SearchLimits limits = limits_for(settings, entry.position);
        searcher.clear();
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        const SearchResult r = searcher.search(entry.position, limits, callbacks, stop);
        q.cpu_seconds += static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        q.time += std::chrono::steady_clock::now() - t0;
        const auto chosen = std::find_if(entry.move_scores.begin(), entry.move_scores.end(),
                                         [&](const auto& ms) { return ms.first == r.best_move; });
        if (chosen == entry.move_scores.end()) {
            return make_error(label + ": position " + std::to_string(i + 1) + ": the search chose " +
                              move_to_string(r.best_move) + ", which has no listed score");
        }
        add_choice(q, *best - chosen->second, r);
        const auto now = std::chrono::steady_clock::now();
        if (now - last_report > std::chrono::seconds(10)) {
            last_report = now;
            std::fprintf(stderr, "measure: %s: %lld/%zu positions, mean loss so far %.2f\n", label.c_str(), q.positions,
                         entries.size(), q.loss / static_cast<double>(q.positions));
        }
    }
    return q;
}

}  // namespace reversi::train
