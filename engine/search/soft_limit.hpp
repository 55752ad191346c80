#pragma once
// How long a timed search keeps starting iterations (docs/search.md, "Stop"). The time manager
// (protocol/time/time_manager.hpp) gives a move a soft limit (its share of the clock) and a hard one (at
// least twice the share); between the two, iterative deepening decides. A best move that has just
// changed is still in doubt, so the search goes on past the share while the next iteration may change it
// again; the clock's later shares pay for it.
//
// The measure is Stockfish's idea in a plain form: `instability` halves at every completed iteration and
// grows by one when the iteration's best move differs from the one before. The soft limit is scaled by
// kSettledScale + kPerChangeScale * instability, at most kMaxScale, and never past the hard limit. Only
// iterations of at least kFirstCountedDepth plies count (the first ones are fast and often change their
// minds). Without a clock (movetime: soft = hard) nothing changes. Each iteration's report carries the
// factor (IterationReport::soft_limit_factor), so that a pondering search, which runs without limits
// until ponderhit, is held to the same scaled share after it.
//
// Measured (docs/eval.md, "The soft limit extended while the best move changes"): in self-play at the same
// clock, extending (1.0 + 0.5 per change) scored +28.7 [+3.8, +54.0] over 400 games for 1.01 times the
// time; also shortening the share of a settled move (0.7 or 0.85 + 0.5 per change) saved 3-7 % of the time
// for +3 and +6 over 400-800 games, and 0.8 + 0.8 per change +18: a settled move gives the clock
// back, but the time left over is not all spent later. Against NTest (three gauntlets, 1,200 games) +4
// over the engine before: neutral there, kept for the self-play result.
#include <algorithm>
#include <chrono>
#include <optional>

#include "engine/board/bitboard.hpp"  // Move, kNoMove

namespace reversi {

// `soft` scaled by `factor`, at most `hard`; `soft` itself when the two are equal (a movetime search,
// whose budget is its own). The one rule for a timed search (SoftLimitScale::scaled) and for a pondering
// one after ponderhit, whose limits the protocol checks (protocol/uci/ponder_control.hpp).
[[nodiscard]] inline std::chrono::milliseconds scaled_soft_limit(std::chrono::milliseconds soft,
                                                                 std::chrono::milliseconds hard,
                                                                 double factor) noexcept {
    if (soft >= hard) return soft;
    const auto ms = static_cast<std::chrono::milliseconds::rep>(static_cast<double>(soft.count()) * factor);
    return std::min(hard, std::chrono::milliseconds(ms));
}

class SoftLimitScale {
public:
    static constexpr double kSettledScale = 1.0;
    static constexpr double kPerChangeScale = 0.5;
    static constexpr double kMaxScale = 1.8;
    static constexpr int kFirstCountedDepth = 4;

    constexpr SoftLimitScale() noexcept = default;
    constexpr SoftLimitScale(double settled, double per_change) noexcept : settled_(settled), per_change_(per_change) {}

    // A completed iteration of `depth` plies whose best move is `best`.
    constexpr void push(int depth, Move best) noexcept {
        if (depth >= kFirstCountedDepth) {
            instability_ /= 2;
            if (best != last_best_) instability_ += 1;
        }
        last_best_ = best;
    }

    [[nodiscard]] constexpr double factor() const noexcept {
        return std::min(kMaxScale, settled_ + per_change_ * instability_);
    }

    // The soft limit to use: `soft` scaled, at most `hard`; `soft` itself when the two are equal (a
    // movetime search, whose budget is its own).
    [[nodiscard]] std::chrono::milliseconds scaled(std::chrono::milliseconds soft,
                                                   std::chrono::milliseconds hard) const noexcept {
        return scaled_soft_limit(soft, hard, factor());
    }

    [[nodiscard]] constexpr double instability() const noexcept { return instability_; }

private:
    double settled_ = kSettledScale;
    double per_change_ = kPerChangeScale;
    double instability_ = 0.0;
    Move last_best_ = kNoMove;
};

// Whether the next iteration can end before the hard limit. An iteration stopped at the hard limit is
// thrown away (the search answers with the last completed one), so one that cannot end in time would
// only spend the clock's later shares: it is not started. Its duration is predicted from the last two
// completed iterations: the last one's times the growth from the one before it, kept within
// [kMinGrowth, kMaxGrowth]; iterations shorter than kMinMeasured (the first ones) predict nothing.
// Measured (docs/eval.md, "An iteration that cannot end is not started"): in self-play at the same clock
// +8.4 [-5.6, +22.4] Elo over 1,200 games (three runs: +15.6, +13.9, -4.3), the same time per move;
// against NTest nothing shows above the noise.
class IterationForecast {
public:
    using Micros = std::chrono::microseconds;
    static constexpr double kMinGrowth = 1.5;
    static constexpr double kMaxGrowth = 12.0;
    static constexpr Micros kMinMeasured{100};

    // A completed iteration that took `took`.
    constexpr void push(Micros took) noexcept {
        before_last_ = last_;
        last_ = took;
    }

    // The next iteration's predicted duration; nullopt before two measurable iterations.
    [[nodiscard]] constexpr std::optional<Micros> next() const noexcept {
        if (before_last_ < kMinMeasured) return std::nullopt;
        const double growth = std::clamp(static_cast<double>(last_.count()) / static_cast<double>(before_last_.count()),
                                         kMinGrowth, kMaxGrowth);
        return Micros(static_cast<Micros::rep>(static_cast<double>(last_.count()) * growth));
    }

    // Whether an iteration started `elapsed` into the search is predicted to end by `hard` (true when
    // nothing is predicted).
    [[nodiscard]] constexpr bool fits(Micros elapsed, Micros hard) const noexcept {
        const std::optional<Micros> n = next();
        return !n || elapsed + *n <= hard;
    }

private:
    Micros last_{0};
    Micros before_last_{0};
};

}  // namespace reversi
