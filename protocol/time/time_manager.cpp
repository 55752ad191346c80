#include "protocol/time/time_manager.hpp"

#include <algorithm>

namespace reversi::timing {

std::int64_t costly_weight_left(int empties) noexcept {
    std::int64_t sum = 0;
    for (int e = empties; e > kCheapEmpties; e -= 2) sum += move_weight(e);
    return sum;
}

TimeLimits plan_move_time(const ClockState& c) noexcept {
    using std::chrono::milliseconds;
    TimeLimits limits;
    if (c.movetime_ms) {
        const std::int64_t hard = std::max<std::int64_t>(1, *c.movetime_ms - c.overhead_ms);
        limits.hard = milliseconds(hard);
        limits.soft = milliseconds(hard);
        if (!c.remaining_ms) return limits;
    }
    if (!c.remaining_ms) return limits;
    const std::int64_t available = std::max<std::int64_t>(0, *c.remaining_ms - c.overhead_ms);
    // The hard limit spreads the clock over every move left, the soft one over the weights of the moves
    // before the cheap endgame (move_weight: the moves around the first solves get more).
    const std::int64_t own_moves_left = std::max(1, (c.empties + 1) / 2);
    const auto moves_left = [&](std::int64_t own) {
        return c.movestogo ? std::clamp<std::int64_t>(*c.movestogo, 1, own + 2) : own + kReserveMoves;
    };
    const std::int64_t inc = std::max<std::int64_t>(0, c.increment_ms);
    const std::int64_t spread = available / moves_left(own_moves_left) + inc * 3 / 4;
    std::int64_t share = 0;
    if (c.movestogo || c.empties <= kCheapEmpties) {
        const std::int64_t costly_moves_left = std::max(1, (c.empties - kCheapEmpties + 1) / 2);
        share = available / moves_left(costly_moves_left) + inc * 3 / 4;
    } else {
        const std::int64_t weights_left = costly_weight_left(c.empties) + kReserveMoves * kMidgameWeight;
        share = available * move_weight(c.empties) / weights_left + inc * 3 / 4;
    }
    std::int64_t hard = std::min(std::max(spread * 4, share * 2), available / 2);
    std::int64_t soft = std::min(share, hard);
    hard = std::max<std::int64_t>(hard, 1);
    soft = std::max<std::int64_t>(soft, 1);
    if (limits.hard) {  // movetime and a clock: the tighter of both
        hard = std::min<std::int64_t>(hard, limits.hard->count());
        soft = std::min(soft, hard);
    }
    limits.hard = milliseconds(hard);
    limits.soft = milliseconds(soft);
    return limits;
}

TimeLimits limits_after(const TimeLimits& limits, std::chrono::milliseconds delay) noexcept {
    using std::chrono::milliseconds;
    const auto shrink = [delay](std::optional<milliseconds> t) -> std::optional<milliseconds> {
        if (!t) return t;
        return std::max(milliseconds(1), *t - std::max(delay, milliseconds(0)));
    };
    return TimeLimits{shrink(limits.soft), shrink(limits.hard)};
}

TimeLimits limits_at_ponderhit(const TimeLimits& planned, std::chrono::milliseconds pondered) noexcept {
    using std::chrono::milliseconds;
    const milliseconds used = std::max(pondered, milliseconds(0));
    TimeLimits left = limits_after(planned, used);
    if (planned.soft) left.soft = std::max(milliseconds(0), *planned.soft - used);
    return left;
}

}  // namespace reversi::timing
