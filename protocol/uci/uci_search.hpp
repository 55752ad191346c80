#pragma once
// `go`: turns a parsed go command into search limits (with the time manager) and runs the search as the
// session's job, reporting info lines, the stats line and exactly one bestmove.
#include "protocol/session/engine_context.hpp"
#include "protocol/uci/uci_commands.hpp"

namespace reversi::uci {

// Starts the search (or answers at once when the game is over). Errors (a searchmoves entry that is not
// legal here) are reported and no search starts.
void start_search(session::EngineContext& ctx, const GoCommand& go);

// A legal move to fall back on when a search ends before finding one: the first legal move, or pass.
[[nodiscard]] Move fallback_move(const Position& pos) noexcept;

}  // namespace reversi::uci
