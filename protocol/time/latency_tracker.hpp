#pragma once
// The adaptive part of the safety margin: how much later than planned the previous answers arrived.
//
// Two kinds of sample, in milliseconds:
// - the engine's own lateness: the time from reading `go` to writing `bestmove`, minus the hard limit
//   planned for it (positive when the search, the thread start or the output ran late); known at once;
// - the latency the GUI saw and the engine could not: the GUI's clock says how long it charged for the
//   previous move of the same side (remaining before - remaining now + increment); what it charged beyond
//   the engine's own go-to-bestmove time is pipe, scheduling and GUI delay, which would come on top of
//   any move, also one that uses its whole hard limit. That delay plus the engine's own lateness is the
//   sample. Only used when the two `go` commands look consecutive (the same side, 1 to 3 fewer empty
//   squares, a charge between 0 and the whole clock).
// The worst sample decays by 1/32 per move the GUI's clock is read for (a load that came and went is
// forgotten over a few games' worth of moves); the margin is 3/2 of it (at most kMaxMarginMs).
// Thread-safe: the job thread records the answer, the reader thread plans the next move.
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>

namespace reversi::timing {

// One clock move as the engine planned it.
struct PlannedMove {
    int side = 0;  // 0 black, 1 white
    int empties = 60;
    std::int64_t remaining_ms = -1;  // the clock `go` gave for the side to move; -1: none (movetime)
    std::int64_t increment_ms = 0;
    std::int64_t hard_ms = 0;  // the hard limit planned, counted from reading `go`
};

class LatencyTracker {
public:
    static constexpr std::int64_t kMaxMarginMs = 10'000;

    // The extra margin to keep for the next move (0 until something ran late).
    [[nodiscard]] std::int64_t margin_ms() const;
    // A clock `go` is about to search: learns from the clock what the GUI charged for this side's previous
    // move, then remembers this one.
    void on_go(const PlannedMove& move);
    // The answer to the last `go` was written `used_ms` after the `go` was read; `one_time_ms` of it went
    // to a one-time preparation (a table allocated once per session) that says nothing of the latency.
    void on_answer(std::int64_t used_ms, std::int64_t one_time_ms = 0);
    // The worst sample so far, decayed (tests, logs).
    [[nodiscard]] std::int64_t worst_ms() const;

private:
    void add_sample(std::int64_t ms, bool decay);  // with the mutex held

    struct Last {
        PlannedMove move;
        std::int64_t used_ms = -1;  // -1: not answered (yet)
        std::int64_t one_time_ms = 0;
    };
    mutable std::mutex mutex_;
    std::array<std::optional<Last>, 2> last_;  // per side
    int last_side_ = -1;
    std::int64_t worst_ = 0;
};

}  // namespace reversi::timing
