#pragma once
// What every front end's search job needs to report a move and a value even when it is stopped at once.
#include <atomic>

#include "engine/board/position.hpp"
#include "engine/search/searcher.hpp"

namespace reversi::session {

// A legal move to fall back on when a search ends before finding one: the first legal move, or pass.
[[nodiscard]] Move fallback_move(const Position& pos) noexcept;

// Searcher::search, and when it was stopped before completing an iteration (depth 0) in a game that is
// not over, a depth-1 search that ignores the stop (a few dozen nodes), so that the move and the value
// reported always come from a completed iteration. Nodes and time are those of both.
[[nodiscard]] SearchResult search_completed(Searcher& searcher, const Position& pos, const SearchLimits& limits,
                                            const SearchCallbacks& callbacks, const std::atomic<bool>& stop);

}  // namespace reversi::session
