#pragma once
// How long an engine may think: a fixed depth, a node count, a time per move, or a Fischer clock
// (base + increment) that the runner keeps. A reply that arrives more than `margin` after the flag
// falls (clock) or after the move time is a time forfeit. Depth and node searches have no clock; a
// reply later than the hang timeout means the engine hangs.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/core/expected.hpp"

namespace reversi::match {

using Millis = std::chrono::milliseconds;

struct TimeControl {
    std::optional<int> depth;
    std::optional<std::uint64_t> nodes;
    std::optional<Millis> movetime;
    std::optional<Millis> base;  // Fischer clock: time for the whole game
    Millis increment{0};         // added after each move
    Millis margin{100};          // grace after the flag falls before it counts as a forfeit

    [[nodiscard]] bool has_clock() const noexcept { return base.has_value(); }
    [[nodiscard]] bool empty() const noexcept { return !depth && !nodes && !movetime && !base; }
};

// "40+0.4" or "40" (seconds, decimals allowed) -> base and increment.
[[nodiscard]] inline Expected<TimeControl> parse_clock(const std::string& text, TimeControl tc) {
    const auto plus = text.find('+');
    auto seconds = [](const std::string& s) -> std::optional<Millis> {
        if (s.empty()) return std::nullopt;
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(s, &used);
        } catch (...) {
            return std::nullopt;
        }
        if (used != s.size() || !(v >= 0) || v > 1e6) return std::nullopt;
        return Millis(static_cast<long long>(v * 1000.0 + 0.5));
    };
    const auto base = seconds(text.substr(0, plus));
    const auto inc = plus == std::string::npos ? std::optional<Millis>(Millis(0)) : seconds(text.substr(plus + 1));
    if (!base || !inc || base->count() <= 0) {
        return make_error("bad clock '" + text + "' (expected seconds[+increment], e.g. 10+0.1)");
    }
    tc.base = *base;
    tc.increment = *inc;
    return tc;
}

// One side's clock during a game.
class GameClock {
public:
    explicit GameClock(const TimeControl& tc) : tc_(tc), remaining_(tc.base.value_or(Millis(0))) {}

    [[nodiscard]] Millis remaining() const noexcept { return remaining_; }

    // The latest moment a reply may arrive without a time forfeit, for a move started at `start`.
    // nullopt when the time control has no time limit (depth, nodes).
    [[nodiscard]] std::optional<std::chrono::steady_clock::time_point> flag_deadline(
        std::chrono::steady_clock::time_point start) const {
        if (tc_.has_clock()) return start + remaining_ + tc_.margin;
        if (tc_.movetime) return start + *tc_.movetime + tc_.margin;
        return std::nullopt;
    }

    // Charges a move that took `used`; false when it was a time forfeit (beyond the margin).
    [[nodiscard]] bool charge(Millis used) {
        if (tc_.has_clock()) {
            remaining_ -= used;
            if (remaining_ < -tc_.margin) return false;
            remaining_ = std::max(remaining_, Millis(0)) + tc_.increment;
            return true;
        }
        if (tc_.movetime) return used <= *tc_.movetime + tc_.margin;
        return true;
    }

private:
    TimeControl tc_;
    Millis remaining_;
};

}  // namespace reversi::match
