#include "engine/endgame/solve_control.hpp"

#include <algorithm>

namespace reversi::endgame {

void SolveControl::charge(std::uint64_t nodes) {
    const std::uint64_t total = charged_.fetch_add(nodes, std::memory_order_relaxed) + nodes;
    if (limits_.nodes && total >= *limits_.nodes) expired_.store(true, std::memory_order_relaxed);
    if (!limits_.deadline && !progress_) return;
    const auto now = Clock::now();
    if (limits_.deadline && now >= *limits_.deadline) expired_.store(true, std::memory_order_relaxed);
    if (!progress_) return;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - start_);
    std::int64_t last = last_report_ms_.load(std::memory_order_relaxed);
    if (ms.count() - last < kProgressInterval.count()) return;
    // One thread wins the report; the others see the new time and go on searching.
    if (!last_report_ms_.compare_exchange_strong(last, ms.count(), std::memory_order_relaxed)) return;
    RootProgress p;
    p.nodes = total;
    p.time = ms;
    report(p);
}

void SolveControl::report(const RootProgress& p) {
    if (!progress_) return;
    std::lock_guard lock(report_mutex_);
    last_report_ms_.store(std::max(last_report_ms_.load(std::memory_order_relaxed), p.time.count()),
                          std::memory_order_relaxed);
    (*progress_)(p);
}

ProgressCallback progress_for_side(const ProgressCallback& progress, int sign) {
    if (!progress || sign > 0) return progress;
    return [progress](const RootProgress& p) {
        RootProgress q = p;
        q.score = -q.score;
        q.bound = negated(q.bound);
        q.root_passed = true;
        progress(q);
    };
}

}  // namespace reversi::endgame
