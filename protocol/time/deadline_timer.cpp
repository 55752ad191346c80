#include "protocol/time/deadline_timer.hpp"

namespace reversi::timing {

void DeadlineTimer::arm(Clock::time_point deadline) {
    std::lock_guard lock(mutex_);
    if (armed_ || cancelled_) return;
    thread_ = std::thread([this, deadline] { wait_and_fire(deadline); });
    armed_ = true;
}

void DeadlineTimer::wait_and_fire(Clock::time_point deadline) {
    {
        std::unique_lock lock(mutex_);
        if (wake_.wait_until(lock, deadline, [this] { return cancelled_; })) return;
    }
    on_expiry_();  // without the lock: it may take other locks (the session's stop)
}

void DeadlineTimer::cancel() noexcept {
    std::thread waiting;
    {
        std::lock_guard lock(mutex_);
        cancelled_ = true;
        waiting = std::move(thread_);
    }
    wake_.notify_all();
    if (waiting.joinable()) waiting.join();
}

}  // namespace reversi::timing
