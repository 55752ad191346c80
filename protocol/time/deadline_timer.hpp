#pragma once
// Calls a function once at a deadline, on a thread of its own, unless cancelled first. The thread waits
// on a condition variable until the deadline or the cancellation (no polling) and is only started by
// arm(); cancel() (and the destructor) wakes and joins it, so the function never runs after cancel()
// has returned. Used for the hard time limit of a pondering search that becomes timed at ponderhit (the
// search's own deadline is fixed when it starts).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace reversi::timing {

class DeadlineTimer {
public:
    using Clock = std::chrono::steady_clock;

    explicit DeadlineTimer(std::function<void()> on_expiry) : on_expiry_(std::move(on_expiry)) {}
    ~DeadlineTimer() { cancel(); }
    DeadlineTimer(const DeadlineTimer&) = delete;
    DeadlineTimer& operator=(const DeadlineTimer&) = delete;

    // Starts waiting for `deadline` (a deadline already past fires at once). Only the first arm() counts;
    // after cancel() it does nothing. Throws std::system_error when no thread can be started.
    void arm(Clock::time_point deadline);
    // The function will not run (or has finished running) when this returns. Not from the function itself.
    void cancel() noexcept;

private:
    void wait_and_fire(Clock::time_point deadline);

    std::function<void()> on_expiry_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool armed_ = false;
    bool cancelled_ = false;
    std::thread thread_;
};

}  // namespace reversi::timing
