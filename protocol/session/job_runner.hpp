#pragma once
// One background job at a time (a search, perft, bench, an NBoard hint or analysis) on its own thread,
// so that the command reader never blocks. stop() raises the job's stop flag (and wakes a job waiting in
// wait_for_stop()); wait() joins. Used from one thread (the session's reader); the job itself runs on the
// worker thread.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace reversi::session {

class JobRunner {
public:
    using Job = std::function<void(const std::atomic<bool>& stop)>;

    JobRunner() = default;
    ~JobRunner();
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    // Starts `job` after joining any finished previous one. Precondition: !running(). `on_done` (may be
    // empty) is called on the worker thread after the job has returned and running() has become false.
    // `on_stop` (may be empty) is called by every stop() until the next start(), after the stop flag is
    // raised: it wakes a job that waits for a stop on a condition of its own (a pondering search). It may
    // be called from any thread that calls stop(), and must not throw.
    // Throws std::system_error when no thread can be started (then nothing runs).
    void start(Job job, std::function<void()> on_done = {}, std::function<void()> on_stop = {});
    // Asks the running job to stop (no effect when idle), wakes wait_for_stop() and calls on_stop.
    // Thread-safe.
    void stop() noexcept;
    // Blocks the job's thread until stop() is called for it (go infinite after its last depth).
    void wait_for_stop();
    // Joins the job's thread (returns at once when there is none).
    void wait();
    // True from start() until the job function returns.
    [[nodiscard]] bool running() const noexcept { return running_.load(std::memory_order_acquire); }

private:
    std::thread thread_;
    std::mutex on_stop_mutex_;
    std::function<void()> on_stop_;  // guarded by on_stop_mutex_
    std::atomic<bool> stop_{false};
    std::mutex stop_mutex_;  // with stop_signal_: wait_for_stop() sleeps until stop() sets stop_
    std::condition_variable stop_signal_;
    std::atomic<bool> running_{false};
};

}  // namespace reversi::session
