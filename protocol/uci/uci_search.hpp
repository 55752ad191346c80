#pragma once
// `go`: turns a parsed go command into search limits (with the time manager) and runs the search as the
// session's job, reporting info lines, the stats line and exactly one bestmove.
#include <chrono>
#include <memory>

#include "protocol/session/engine_context.hpp"
#include "protocol/time/latency_tracker.hpp"
#include "protocol/uci/ponder_control.hpp"
#include "protocol/uci/uci_commands.hpp"

namespace reversi::uci {

// When the `go` line was read (its time limits count from there) and the session's latency record (the
// adaptive part of the safety margin; nullptr: MoveOverhead alone).
struct GoTiming {
    std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now();
    std::shared_ptr<timing::LatencyTracker> latency;
};

// Starts the search (or answers at once when the game is over). Errors (a searchmoves entry that is not
// legal here) are reported and no search starts. A `go ponder` search (ponder_control.hpp) returns its
// control, for ponderhit; every other go returns nullptr. With the Ponder option on, the bestmove line
// names the expected reply when the principal variation has one: `bestmove f5 ponder d6`.
std::shared_ptr<PonderControl> start_search(session::EngineContext& ctx, const GoCommand& go,
                                            const GoTiming& timing = {});

// The bestmove line: `bestmove M`, with ` ponder R` when `with_ponder` and the PV's second move is a
// legal reply to M (a pass when the opponent must pass; none when M ends the game).
[[nodiscard]] std::string bestmove_line(const Position& pos, const SearchResult& result, bool with_ponder);

}  // namespace reversi::uci
