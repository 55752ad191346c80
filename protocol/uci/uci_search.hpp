#pragma once
// `go`: turns a parsed go command into search limits (with the time manager) and runs the search as the
// session's job, reporting info lines, the stats line and exactly one bestmove.
#include <atomic>
#include <chrono>
#include <memory>

#include "protocol/session/engine_context.hpp"
#include "protocol/time/latency_tracker.hpp"
#include "protocol/uci/uci_commands.hpp"

namespace reversi::uci {

// When the `go` line was read (its time limits count from there) and the session's latency record (the
// adaptive part of the safety margin; nullptr: MoveOverhead alone).
struct GoTiming {
    std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now();
    std::shared_ptr<timing::LatencyTracker> latency;
};

// Starts the search (or answers at once when the game is over). Errors (a searchmoves entry that is not
// legal here) are reported and no search starts.
void start_search(session::EngineContext& ctx, const GoCommand& go, const GoTiming& timing = {});

// A legal move to fall back on when a search ends before finding one: the first legal move, or pass.
[[nodiscard]] Move fallback_move(const Position& pos) noexcept;

// Searcher::search, and when it was stopped before completing an iteration (depth 0) in a game that is
// not over, a depth-1 search that ignores the stop (a few dozen nodes), so that the move and the value
// reported always come from a completed iteration. Nodes and time are those of both.
[[nodiscard]] SearchResult search_completed(Searcher& searcher, const Position& pos, const SearchLimits& limits,
                                            const SearchCallbacks& callbacks, const std::atomic<bool>& stop);

}  // namespace reversi::uci
