// The bench fingerprint: fixed positions (the start, openings, and middle games reached by fixed
// transcripts of seeded random games),
// searched one after the other with the engine's search as it is played (iterative deepening +
// negascout + TT + aspiration + Multi-ProbCut at kEngineSelectivityPercent with the embedded calibration), one thread,
// a table of `hash_mib` MiB cleared at the start, depth 10 unless told. The node total identifies the search's
// behaviour; it must be the same on every run and every machine.
#include "engine/search/bench.hpp"

#include <array>
#include <string_view>

#include "engine/board/notation.hpp"
#include "engine/search/searcher.hpp"

namespace reversi {

namespace {

constexpr int kDefaultDepth = 10;

constexpr std::array<std::string_view, 8> kTranscripts = {
    "",
    "f5d6c3d3c4",
    "f5f6e6f4e3c5c4",
    "e6f4f3f2c3c4e3f6g5b2g6e2d2f5d3c6b3f7g4a3",
    "f5f6e6f4g5e7f7h5e3",
    "c4c5b6c3e3d3f5g6g5f6g7c6e6h8c2f7d7d2e8f2g8d6e7h6c7h5",
    "d3c3f5f4f3f6f7g7d6f8c4f2b2a1g3b4b3h4g6h5h8e6a4c2h2h3e2d2g5h6g8a5",
    "d3e3f2c5d6c6f6e7b5f4b7c2g4b6b1a4b4c4f5g1f3e2c3h4d1f1h3e6d7b2a2a8d2e8g5a5a6h5",
};

}  // namespace

BenchResult run_bench(const BenchOptions& options, const std::function<void(const std::string&)>& progress) {
    BenchResult result;
    Searcher searcher(options.hash_mib);
    searcher.clear();
    SearchOptions search_options;  // the defaults: negascout, TT, iterative deepening, aspiration
    search_options.threads = 1;
    search_options.selectivity = kEngineSelectivityPercent;  // as the engine plays (the library default is 100)
    search_options.ordering = kEngineOrdering;               // likewise (the library default is Normal)
    searcher.set_options(search_options);
    const std::atomic<bool> stop{false};
    const auto start = std::chrono::steady_clock::now();
    for (std::string_view t : kTranscripts) {
        auto pos = play_transcript(start_position(), t);
        if (!pos) continue;  // the transcripts are fixed and legal: tests check it
        SearchLimits limits;
        limits.depth = options.depth > 0 ? options.depth : kDefaultDepth;
        const auto r = searcher.search(*pos, limits, {}, stop);
        result.nodes += r.nodes;
        ++result.positions;
        if (progress) {
            progress("position " + std::to_string(result.positions) + " (" + std::string(t.empty() ? "start" : t) +
                     "): " + std::to_string(r.nodes) + " nodes, best " + move_to_string(r.best_move) + ", score " +
                     std::to_string(r.score));
        }
    }
    result.time = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    return result;
}

}  // namespace reversi
