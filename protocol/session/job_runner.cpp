#include "protocol/session/job_runner.hpp"

#include <spdlog/spdlog.h>

namespace reversi::session {

JobRunner::~JobRunner() {
    stop();
    wait();
}

void JobRunner::stop() noexcept {
    {
        std::lock_guard lock(stop_mutex_);
        stop_.store(true, std::memory_order_relaxed);
    }
    stop_signal_.notify_all();
    try {
        std::function<void()> notify;
        {
            std::lock_guard lock(on_stop_mutex_);
            notify = on_stop_;
        }
        if (notify) notify();  // without the lock: it takes the job's own lock
    } catch (...) {            // std::system_error from the mutex, std::bad_alloc: the flag is raised all the same
        spdlog::error("job stop: the stop notification failed");
    }
}

void JobRunner::wait_for_stop() {
    std::unique_lock lock(stop_mutex_);
    stop_signal_.wait(lock, [this] { return stop_.load(std::memory_order_relaxed); });
}

void JobRunner::start(Job job, std::function<void()> on_done, std::function<void()> on_stop) {
    wait();
    {
        std::lock_guard lock(on_stop_mutex_);
        on_stop_ = std::move(on_stop);
    }
    stop_.store(false, std::memory_order_relaxed);
    running_.store(true, std::memory_order_release);
    try {
        thread_ = std::thread([this, job = std::move(job), on_done = std::move(on_done)] {
            try {
                job(stop_);
            } catch (const std::exception& e) {  // e.g. std::bad_alloc: report, keep serving
                spdlog::error("job failed: {}", e.what());
            } catch (...) {
                spdlog::error("job failed: unknown exception");
            }
            running_.store(false, std::memory_order_release);
            if (on_done) on_done();
        });
    } catch (...) {  // no thread (std::system_error when the system has none left): not running
        running_.store(false, std::memory_order_release);
        throw;
    }
}

void JobRunner::wait() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace reversi::session
