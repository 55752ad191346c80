#pragma once
// perft for the protocol's `perft N` command: the engine's counting rules (a pass is a ply, a game that
// ends before the horizon is one leaf) with a stop flag, so that a long perft never holds up `quit` or a
// server shutdown. Checked against engine/board/perft in tests/protocol/.
#include <atomic>
#include <cstdint>
#include <optional>

#include "engine/board/position.hpp"

namespace reversi::session {

// The count, or nullopt when `stop` was raised before the end.
[[nodiscard]] std::optional<std::uint64_t> stoppable_perft(const Position& pos, int depth,
                                                           const std::atomic<bool>& stop);

}  // namespace reversi::session
