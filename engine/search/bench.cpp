// The bench fingerprint: fixed positions (openings and middle games reached by fixed transcripts),
// searched one after the other with the default search (iterative deepening + negascout + TT +
// aspiration), one thread, a table of `hash_mib` MiB cleared at the start, depth 8 unless told. The node
// total identifies the search's behaviour; it must be the same on every run and every machine.
#include "engine/search/bench.hpp"

#include <array>
#include <string_view>

#include "engine/board/notation.hpp"
#include "engine/search/searcher.hpp"

namespace reversi {

namespace {

constexpr int kDefaultDepth = 8;

constexpr std::array<std::string_view, 8> kTranscripts = {
    "",
    "f5d6c3d3c4",
    "f5f6e6f4e3c5c4",
    "f5d6c5f4e3f6d3e6",
    "f5f6e6f4g5e7f7h5e3",
    "c4e3f6e6f5c5c3b4b5d3f4a5",
    "f5d6c4d3c3f4f6f3e6e7c5c6b5d7e3g4",
    "e6f4c3c4d3d6e3c2b3d2c5f5f3f6e7g5g4h3",
};

}  // namespace

BenchResult run_bench(const BenchOptions& options, const std::function<void(const std::string&)>& progress) {
    BenchResult result;
    Searcher searcher(options.hash_mib);
    searcher.clear();
    SearchOptions search_options;  // the defaults: negascout, TT, iterative deepening, aspiration
    search_options.threads = 1;
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
