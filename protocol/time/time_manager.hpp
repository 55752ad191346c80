#pragma once
// The time manager: from the clock of a `go` command to the search's soft limit (do not start another
// iteration after it) and hard limit (stop at once). Plain arithmetic, unit-tested on its own.
//
// With a clock: available = remaining - MoveOverhead. In sudden death the soft limit (the move's share) is
// available * w(this move) / (the weights of the side to move's moves left above kCheapEmpties empty
// squares + kReserveMoves midgame weights), plus 3/4 of the increment: the last moves are solved in
// milliseconds and get no share; the moves at kEndgameFirst..kEndgameLast empties, where the first
// solves become affordable and the searches see the end of the game, weigh kEndgameWeight /
// kMidgameWeight times a midgame move (measured: against NTest, a third of the discs we lost were lost
// in the last 24 empties, at three times the loss per move of the midgame). The phantom reserve moves
// keep several shares on the clock to the end: a search often runs past its soft limit to finish an
// iteration, and what is left absorbs the latency spikes of a loaded machine. With movestogo the share is
// available / movestogo (no weights). The hard limit spreads the clock over all the moves left (plus the
// reserve): at most 4 such spreads, at least 2 shares, and never more than half the available time, so
// that a move that uses all of it still leaves half of the clock (and the overhead) for the next one: the
// clock never runs out even when every move does.
// With movetime: the hard limit is movetime - MoveOverhead (at least 1 ms).
//
// Both limits count from the moment the `go` line was read (the front end stamps it); the search starts
// a little later, so its limits are shortened by the delay (limits_after). `overhead_ms` is MoveOverhead
// plus the adaptive margin of protocol/time/latency_tracker.hpp, which learns the latency the search
// limits cannot see (thread start, output, pipes, the GUI) from the clocks the GUI sends.
//
// Pondering (`go ponder`, then `ponderhit`): the search runs without a time limit until ponderhit; the
// limits are planned from the clock of the `go ponder` (the clock the engine will have when its turn
// comes) and, as engines usually do, count from the `go ponder`: the time spent pondering counts as time
// already used on this move (limits_at_ponderhit). So the hard limit measured from ponderhit is the
// planned one minus the time pondered, never more than the plan (and so than the clock) allows from
// ponderhit; when the pondering already lasted the soft limit, the search answers at once with what it
// has (at least one completed iteration).
#include <chrono>
#include <cstdint>
#include <optional>

namespace reversi::timing {

inline constexpr std::int64_t kReserveMoves = 8;

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

// The weights of a move in the clock's shares (see above): the endgame band gets more.
inline constexpr int kEndgameFirst = 19;
inline constexpr int kEndgameLast = 26;
inline constexpr std::int64_t kMidgameWeight = 4;
inline constexpr std::int64_t kEndgameWeight = 10;

[[nodiscard]] constexpr std::int64_t move_weight(int empties) noexcept {
    if (empties <= kCheapEmpties) return 0;
    return empties >= kEndgameFirst && empties <= kEndgameLast ? kEndgameWeight : kMidgameWeight;
}

// The weights of the side to move's moves from `empties` on (this one, then every second ply) above
// kCheapEmpties.
[[nodiscard]] std::int64_t costly_weight_left(int empties) noexcept;

// The overhead a move plans with: MoveOverhead, plus the adaptive margin (latency_tracker.hpp) when the
// side to move has a clock. The margin protects the clock; a movetime search has no clock to run out of
// and keeps its whole budget (with the margin, one late answer under load shrank every later movetime
// search of the session to 1 ms: 4.2 ms per move at movetime 30).
[[nodiscard]] constexpr std::int64_t planned_overhead(std::int64_t move_overhead_ms, std::int64_t margin_ms,
                                                      bool clock) noexcept {
    return move_overhead_ms + (clock ? margin_ms : 0);
}

// No clock and no movetime: no time limits.
[[nodiscard]] TimeLimits plan_move_time(const ClockState& clock) noexcept;

// The same limits for a search that starts `delay` after `go` was read: each shrinks by the delay, to
// at least 1 ms (the search then completes its first iteration only).
[[nodiscard]] TimeLimits limits_after(const TimeLimits& limits, std::chrono::milliseconds delay) noexcept;

// The limits left at ponderhit, `pondered` after the `go ponder` was read: each shrinks by the time
// pondered; the soft limit may reach 0 (answer at once), the hard one is at least 1 ms.
[[nodiscard]] TimeLimits limits_at_ponderhit(const TimeLimits& planned, std::chrono::milliseconds pondered) noexcept;

}  // namespace reversi::timing
