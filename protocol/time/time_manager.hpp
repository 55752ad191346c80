#pragma once
// The time manager: from the clock of a `go` command to the search's soft limit (do not start another
// iteration after it) and hard limit (stop at once). Plain arithmetic, unit-tested on its own.
//
// With a clock: available = remaining - MoveOverhead; the share for this move is available / moves_left
// plus 3/4 of the increment, where moves_left is movestogo (when given) or an estimate from the empty
// squares (the side to move plays about half of them), plus 2. The soft limit counts only the squares
// above kCheapEmpties (the time goes to the midgame); the hard limit counts them all. The hard limit is at most 4 shares and never more
// than 3/4 of the available time, so the clock never runs out even when every move uses its hard limit.
// With movetime: the hard limit is movetime - MoveOverhead (at least 1 ms).
#include <chrono>
#include <cstdint>
#include <optional>

namespace reversi::timing {

struct ClockState {
    std::optional<std::int64_t> remaining_ms;  // the side to move's clock
    std::int64_t increment_ms = 0;
    std::optional<int> movestogo;
    std::optional<std::int64_t> movetime_ms;
    int empties = 60;
    std::int64_t overhead_ms = 30;
};

struct TimeLimits {
    std::optional<std::chrono::milliseconds> soft;
    std::optional<std::chrono::milliseconds> hard;
};

// Positions with at most this many empty squares are solved exactly in a few milliseconds: the clock is
// shared among the moves before them (the midgame, where time buys depth).
inline constexpr int kCheapEmpties = 12;

// No clock and no movetime: no time limits.
[[nodiscard]] TimeLimits plan_move_time(const ClockState& clock) noexcept;

}  // namespace reversi::timing
