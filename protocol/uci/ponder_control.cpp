#include "protocol/uci/ponder_control.hpp"

#include <system_error>

#include <spdlog/spdlog.h>

#include "engine/search/soft_limit.hpp"

namespace reversi::uci {

PonderControl::PonderControl(PonderPlan plan, std::function<void()> stop_search)
    : plan_(std::move(plan)), stop_search_(std::move(stop_search)), timer_(stop_search_) {}

bool PonderControl::start_clock(Clock::time_point now) {
    using std::chrono::milliseconds;
    const auto pondered = std::chrono::duration_cast<milliseconds>(now - plan_.received);
    const timing::TimeLimits left = timing::limits_at_ponderhit(plan_.limits, pondered);
    hit_at_ = now;
    if (left.hard) hard_deadline_ = now + *left.hard;
    if (plan_.latency && plan_.clock_move && left.hard) {
        timing::PlannedMove move = *plan_.clock_move;
        move.hard_ms = left.hard->count();
        plan_.latency->on_go(move);
    }
    const auto soft = soft_deadline();
    spdlog::debug("ponderhit after {} ms of pondering: soft limit {} ms (scaled {:.2f}), hard limit {} ms left",
                  pondered.count(), soft ? std::chrono::duration_cast<milliseconds>(*soft - now).count() : -1,
                  soft_factor_, left.hard ? left.hard->count() : -1);
    return soft && now >= *soft;
}

std::optional<PonderControl::Clock::time_point> PonderControl::soft_deadline() const {
    const timing::TimeLimits& planned = plan_.limits;
    if (!planned.soft) return std::nullopt;
    const auto share = planned.hard ? scaled_soft_limit(*planned.soft, *planned.hard, soft_factor_) : *planned.soft;
    return plan_.received + share;
}

bool PonderControl::awaits_answer() const {
    std::lock_guard lock(mutex_);
    return state_ == State::Pondering || state_ == State::Waiting;
}

bool PonderControl::hit(Clock::time_point now) {
    bool stop_now = false;
    bool searching = false;
    std::optional<Clock::time_point> hard_deadline;
    {
        std::lock_guard lock(mutex_);
        if (state_ != State::Pondering && state_ != State::Waiting) return false;
        searching = state_ == State::Pondering;
        stop_now = start_clock(now);
        hard_deadline = hard_deadline_;
        state_ = State::Timed;
    }
    changed_.notify_all();
    if (!searching) return true;  // the answer is ready: the job sends it now
    if (stop_now) {
        stop_search_();
    } else if (hard_deadline) {
        try {
            timer_.arm(*hard_deadline);
        } catch (const std::system_error& e) {  // no thread for the timer: answer now rather than risk the clock
            spdlog::error("ponderhit: cannot start the timer ({}); the search answers now", e.what());
            stop_search_();
        }
    }
    return true;
}

void PonderControl::release() noexcept {
    try {
        std::lock_guard lock(mutex_);
        if (state_ == State::Pondering || state_ == State::Waiting) state_ = State::Released;
    } catch (...) {  // std::system_error from the mutex: the waiting job would never wake
        spdlog::critical("ponder: cannot release the waiting search");
    }
    changed_.notify_all();
}

bool PonderControl::past_soft_limit(Clock::time_point now, std::optional<double> soft_factor) {
    std::lock_guard lock(mutex_);
    if (soft_factor) soft_factor_ = *soft_factor;
    if (state_ != State::Timed) return false;
    const auto soft = soft_deadline();
    return soft && now >= *soft;
}

std::optional<PonderControl::Clock::time_point> PonderControl::wait_for_answer() {
    timer_.cancel();  // without the lock: the timer's function stops the job, whose on_stop takes it
    std::unique_lock lock(mutex_);
    if (state_ == State::Pondering) state_ = State::Waiting;
    changed_.wait(lock, [this] { return state_ != State::Waiting; });
    const bool timed = state_ == State::Timed;
    state_ = State::Ended;
    return timed ? hit_at_ : std::nullopt;
}

void PonderControl::end() noexcept {
    timer_.cancel();
    try {
        std::lock_guard lock(mutex_);
        state_ = State::Ended;
    } catch (...) {
    }
}

}  // namespace reversi::uci
