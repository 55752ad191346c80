#include "protocol/time/latency_tracker.hpp"

#include <algorithm>

namespace reversi::timing {

std::int64_t LatencyTracker::margin_ms() const {
    std::lock_guard lock(mutex_);
    return std::min(kMaxMarginMs, worst_ * 3 / 2);
}

std::int64_t LatencyTracker::worst_ms() const {
    std::lock_guard lock(mutex_);
    return worst_;
}

void LatencyTracker::add_sample(std::int64_t ms, bool decay) {
    if (decay) worst_ -= (worst_ + 31) / 32;  // reaches 0
    worst_ = std::max(worst_, std::max<std::int64_t>(ms, 0));
}

void LatencyTracker::on_go(const PlannedMove& move) {
    std::lock_guard lock(mutex_);
    const int side = move.side & 1;
    const auto& last = last_[static_cast<std::size_t>(side)];
    if (last && last->used_ms >= 0) {
        const PlannedMove& before = last->move;
        const int played = before.empties - move.empties;
        const std::int64_t charged = before.remaining_ms + before.increment_ms - move.remaining_ms;
        const bool clocks = before.remaining_ms >= 0 && move.remaining_ms >= 0;
        const bool consecutive = clocks && played >= 1 && played <= 3 && charged >= 0 &&
                                 charged <= before.remaining_ms + before.increment_ms;
        // What the GUI charged beyond the engine's own go-to-bestmove time, plus the engine's own lateness.
        const std::int64_t late = std::max<std::int64_t>(0, last->used_ms - last->one_time_ms - before.hard_ms);
        if (consecutive) add_sample(std::max<std::int64_t>(0, charged - last->used_ms) + late, true);
    }
    last_[static_cast<std::size_t>(side)] = Last{move, -1};
    last_side_ = side;
}

void LatencyTracker::on_answer(std::int64_t used_ms, std::int64_t one_time_ms) {
    std::lock_guard lock(mutex_);
    if (last_side_ < 0) return;
    auto& last = last_[static_cast<std::size_t>(last_side_)];
    if (!last || last->used_ms >= 0) return;
    last->used_ms = used_ms;
    last->one_time_ms = one_time_ms;
    add_sample(used_ms - one_time_ms - last->move.hard_ms, false);
}

}  // namespace reversi::timing
