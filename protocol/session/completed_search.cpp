#include "protocol/session/completed_search.hpp"

namespace reversi::session {

Move fallback_move(const Position& pos) noexcept {
    const Bitboard moves = pos.moves();
    if (moves) return static_cast<Move>(first_square(moves));
    return pos.is_over() ? kNoMove : kPass;
}

SearchResult search_completed(Searcher& searcher, const Position& pos, const SearchLimits& limits,
                              const SearchCallbacks& callbacks, const std::atomic<bool>& stop) {
    SearchResult result = searcher.search(pos, limits, callbacks, stop);
    if (result.depth > 0 || pos.is_over()) return result;
    SearchLimits shallow;
    shallow.depth = 1;
    shallow.search_moves = limits.search_moves;
    const std::atomic<bool> never{false};
    SearchResult first = searcher.search(pos, shallow, callbacks, never);
    first.nodes += result.nodes;
    first.leaves += result.leaves;
    first.time += result.time;
    return first;
}

}  // namespace reversi::session
