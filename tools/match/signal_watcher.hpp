#pragma once
// SIGINT/SIGTERM for a multi-threaded runner: blocked in every thread started after the watcher (create it
// first), and taken by one watcher thread, which calls `on_signal` (once per signal) until stop() or
// destruction; the previous signal mask is restored then.
#include <pthread.h>

#include <atomic>
#include <csignal>
#include <ctime>
#include <functional>
#include <thread>

namespace reversi::match {

class SignalWatcher {
public:
    explicit SignalWatcher(std::function<void()> on_signal) : on_signal_(std::move(on_signal)) {
        sigemptyset(&signals_);
        sigaddset(&signals_, SIGINT);
        sigaddset(&signals_, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
        thread_ = std::thread([this] {
            const timespec slice{0, 100'000'000};
            while (!finished_.load()) {
                const int sig = sigtimedwait(&signals_, nullptr, &slice);
                if (sig == SIGINT || sig == SIGTERM) on_signal_();
            }
        });
    }
    ~SignalWatcher() { stop(); }
    SignalWatcher(const SignalWatcher&) = delete;
    SignalWatcher& operator=(const SignalWatcher&) = delete;

    void stop() {
        if (!thread_.joinable()) return;
        finished_ = true;
        thread_.join();
        pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    }

private:
    std::function<void()> on_signal_;
    sigset_t signals_{};
    sigset_t previous_{};
    std::atomic<bool> finished_{false};
    std::thread thread_;
};

}  // namespace reversi::match
