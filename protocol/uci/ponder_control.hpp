#pragma once
// One `go ponder` search, shared by the front end (the reader thread: ponderhit; the session's stop
// through EngineContext::start_job's on_stop) and the search job. The search runs without a time limit
// (its depth and node limits still apply) and never answers before ponderhit or stop: when it ends
// first, the job waits on a condition variable. ponderhit makes it a timed search with the limits
// planned from the go ponder's clock, counted from the go ponder (timing::limits_at_ponderhit): the soft
// limit, scaled by the search's stability as a timed search's is, is checked after each iteration (the
// job stops the search), the hard one by a DeadlineTimer armed at ponderhit. stop makes it answer at once.
//
// States: Pondering (searching) -> Waiting (the search ended by itself, the answer is held) ->
// Timed (ponderhit) or Released (stop) -> Ended (the job has answered).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "protocol/time/deadline_timer.hpp"
#include "protocol/time/latency_tracker.hpp"
#include "protocol/time/time_manager.hpp"

namespace reversi::uci {

// What a go ponder planned (reader thread, before the search starts).
struct PonderPlan {
    using Clock = std::chrono::steady_clock;
    timing::TimeLimits limits;   // from the go ponder's clock or movetime, counted from `received`
    Clock::time_point received;  // when the go ponder was read
    bool bounded = false;        // after ponderhit the search ends by itself (time, depth, nodes...)
    // The move for the latency record (a clock move: its hard limit is set at ponderhit), and the record.
    std::optional<timing::PlannedMove> clock_move;
    std::shared_ptr<timing::LatencyTracker> latency;
};

class PonderControl {
public:
    using Clock = std::chrono::steady_clock;

    // `stop_search` stops the running search (the session's stop_job; called without any lock held).
    PonderControl(PonderPlan plan, std::function<void()> stop_search);
    PonderControl(const PonderControl&) = delete;
    PonderControl& operator=(const PonderControl&) = delete;

    // ponderhit read at `now` (reader thread): false when the search is no longer pondering (nothing
    // changes). Otherwise the search becomes timed; it is stopped at once when the time pondered has
    // reached the soft limit. Records the move with the latency tracker.
    [[nodiscard]] bool hit(Clock::time_point now);
    // stop (any thread): a pondering or waiting search answers now (its stop flag is already raised).
    void release() noexcept;
    [[nodiscard]] const PonderPlan& plan() const noexcept { return plan_; }
    // Pondering or waiting: neither ponderhit nor stop came yet.
    [[nodiscard]] bool awaits_answer() const;

    // Job thread, after each completed iteration: ponderhit came and the soft limit has passed. The soft
    // limit is the plan's share scaled as a timed search scales its own (engine/search/soft_limit.hpp:
    // longer while the best move changes, never past the hard limit), by the factor of the search's last
    // report that carried one (`soft_factor`, recorded while pondering too, so that ponderhit uses it).
    [[nodiscard]] bool past_soft_limit(Clock::time_point now, std::optional<double> soft_factor = std::nullopt);
    // Job thread, when the search has returned: cancels the hard-limit timer, then waits for ponderhit
    // or stop when neither came yet. Returns the time of the ponderhit (nullopt: stopped while pondering).
    [[nodiscard]] std::optional<Clock::time_point> wait_for_answer();
    // The job ends (also on an exception): the timer is cancelled, nothing waits any more.
    void end() noexcept;

private:
    enum class State { Pondering, Waiting, Timed, Released, Ended };

    // Under the lock: the deadlines of a ponderhit at `now`; true when the search must stop at once.
    bool start_clock(Clock::time_point now);
    // Under the lock: the soft limit as a time, counted from the go ponder, scaled by soft_factor_.
    [[nodiscard]] std::optional<Clock::time_point> soft_deadline() const;

    const PonderPlan plan_;
    const std::function<void()> stop_search_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    State state_ = State::Pondering;
    std::optional<Clock::time_point> hit_at_;
    std::optional<Clock::time_point> hard_deadline_;
    double soft_factor_ = 1.0;
    timing::DeadlineTimer timer_;  // declared last: cancelled and joined first
};

}  // namespace reversi::uci
