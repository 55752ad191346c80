#pragma once
// The server-wide budget of search threads (--max-threads, default: the machine's cores). A job takes a
// ThreadGrant for the threads its search wants: its own thread always (a search is never refused), and
// helper threads only while the server's total stays within the budget. Thread-safe.
#include <mutex>

namespace reversi::session {

class ThreadBudget {
public:
    explicit ThreadBudget(int total) : total_(total < 1 ? 1 : total) {}
    // Takes between 1 and `wanted` threads (1 even when the budget is spent).
    [[nodiscard]] int acquire(int wanted);
    void release(int count) noexcept;
    [[nodiscard]] int total() const noexcept { return total_; }
    [[nodiscard]] int in_use() const;

private:
    mutable std::mutex mutex_;
    const int total_;
    int used_ = 0;
};

// The threads of one job, given back when it ends.
class ThreadGrant {
public:
    ThreadGrant(ThreadBudget& budget, int wanted) : budget_(budget), count_(budget.acquire(wanted)) {}
    ~ThreadGrant() { budget_.release(count_); }
    ThreadGrant(const ThreadGrant&) = delete;
    ThreadGrant& operator=(const ThreadGrant&) = delete;
    [[nodiscard]] int count() const noexcept { return count_; }

private:
    ThreadBudget& budget_;
    const int count_;
};

}  // namespace reversi::session
