// Balanced random openings.
#include "tools/match/random_openings.hpp"

#include <atomic>
#include <random>
#include <set>
#include <string>

#include "engine/board/notation.hpp"
#include "engine/search/searcher.hpp"

namespace reversi::match {

using data::Opening;

Expected<std::vector<Opening>> random_openings(const RandomOpeningSpec& spec, int count, Variant variant) {
    std::mt19937_64 rng(spec.seed);
    Searcher searcher(1);
    std::set<std::string> seen;
    std::vector<Opening> out;
    const long long max_attempts = 2000LL * count + 10000;
    std::atomic<bool> stop{false};
    for (long long attempt = 0; attempt < max_attempts && static_cast<int>(out.size()) < count; ++attempt) {
        Opening op;
        op.start = start_position(variant);
        Position pos = op.start;
        while (static_cast<int>(op.moves.size()) < spec.plies && !pos.is_over()) {
            const Bitboard moves = pos.moves();
            Move m = kPass;
            if (moves) {
                std::vector<Move> list;
                for (int sq : squares(moves)) list.push_back(static_cast<Move>(sq));
                m = list[rng() % list.size()];
            }
            op.moves.push_back(m);
            pos = pos.play_move(m);
        }
        if (pos.is_over() || static_cast<int>(op.moves.size()) < spec.plies) continue;
        op.text = to_transcript(op.moves);
        if (seen.count(op.text)) continue;
        if (spec.search_depth > 0) {
            SearchLimits limits;
            limits.depth = spec.search_depth;
            const SearchResult r = searcher.search(pos, limits, {}, stop);
            if (r.score > spec.balance || r.score < -spec.balance) continue;
        }
        seen.insert(op.text);
        out.push_back(std::move(op));
    }
    if (static_cast<int>(out.size()) < count) {
        return make_error("found only " + std::to_string(out.size()) + " of " + std::to_string(count) +
                          " random openings within +-" + std::to_string(spec.balance) + " discs");
    }
    return out;
}

}  // namespace reversi::match
