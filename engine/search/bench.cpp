// PLACEHOLDER bench positions and depth; the search work owns and replaces this file.
#include "engine/search/bench.hpp"

#include "engine/board/notation.hpp"
#include "engine/search/searcher.hpp"

namespace reversi {

BenchResult run_bench(const BenchOptions& options, const std::function<void(const std::string&)>& progress) {
    const char* transcripts[] = {"", "f5d6c3d3c4", "f5f6e6f4e3c5c4"};
    BenchResult result;
    Searcher searcher(options.hash_mib);
    std::atomic<bool> stop{false};
    const auto start = std::chrono::steady_clock::now();
    for (const char* t : transcripts) {
        auto pos = play_transcript(start_position(), t);
        if (!pos) continue;
        SearchLimits limits;
        limits.depth = options.depth > 0 ? options.depth : 6;
        const auto r = searcher.search(*pos, limits, {}, stop);
        result.nodes += r.nodes;
        ++result.positions;
        if (progress) progress("position " + std::to_string(result.positions) + ": " + std::to_string(r.nodes) + " nodes");
    }
    result.time = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    return result;
}

}  // namespace reversi
