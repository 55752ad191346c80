#pragma once
// The limits of one exact solve, shared by all its threads: the caller's stop flag, a deadline and a node
// budget, the same limits the midgame search takes (engine/search/search_context.hpp). No thread watches
// them: every worker calls charge() each kPollNodes of its own nodes, which adds them to the solve's count,
// compares the count with the budget and the clock with the deadline, and raises halted() when one is
// passed. The same call sends a periodic progress report (RootProgress with move == kNoMove) when none was
// sent for kProgressInterval, so that a long solve reports even while no root move finishes.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>

#include "engine/board/bitboard.hpp"
#include "engine/core/bound.hpp"

namespace reversi::endgame {

// One root move's result (score is a bound when bound != Exact), the end of a root pass (pass_end), or a
// periodic report (move == kNoMove and !pass_end: only nodes and time are meaningful).
struct RootProgress {
    Move move = kNoMove;
    int score = 0;
    Bound bound = Bound::Exact;
    bool new_best = false;      // this move is now the best root move of the pass
    bool pass_end = false;      // a root pass ended: score/bound are the pass's, move its best move
    int selectivity_level = 0;  // level of the pass (0 = exact; > 0: a selective pass, the score is a guess)
    bool root_passed = false;   // the root's side must pass: `move` is the opponent's, after the pass
    std::uint64_t nodes = 0;    // all threads, so far
    std::chrono::milliseconds time{0};
};
// Called from whichever search thread has something to report, one call at a time.
using ProgressCallback = std::function<void(const RootProgress&)>;

// `progress` for a search of the position after the root's pass (sign < 0): each report's score is
// negated, its bound swapped back to the root's side and root_passed set (its move is the opponent's reply
// to the pass, and a new best move of the opponent bounds the root from above); with sign > 0 or no
// callback, `progress` itself.
[[nodiscard]] ProgressCallback progress_for_side(const ProgressCallback& progress, int sign);

struct SolveLimits {
    const std::atomic<bool>* stop = nullptr;  // the caller's flag (relaxed loads)
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::optional<std::uint64_t> nodes;  // node budget of this solve (checked every kPollNodes per thread)
};

class SolveControl {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::uint64_t kPollNodes = 4096;
    static constexpr std::chrono::milliseconds kProgressInterval{1000};

    SolveControl(const SolveLimits& limits, Clock::time_point start, const ProgressCallback* progress = nullptr)
        : limits_(limits), start_(start), progress_(progress && *progress ? progress : nullptr) {}

    // The caller's stop flag is set or a limit is passed: every worker returns.
    [[nodiscard]] bool halted() const noexcept {
        return expired_.load(std::memory_order_relaxed) ||
               (limits_.stop && limits_.stop->load(std::memory_order_relaxed));
    }
    // halted(), or the search's own `cutoff` flag (may be null: a split's "no longer needed") is set.
    [[nodiscard]] bool stopped(const std::atomic<bool>* cutoff) const noexcept {
        return halted() || (cutoff && cutoff->load(std::memory_order_relaxed));
    }
    // Adds `nodes` searched since the caller's last charge; checks the node budget and the deadline, and
    // sends the periodic report when it is due.
    void charge(std::uint64_t nodes);
    // A worker's poll: once its node count `nodes` is kPollNodes or more past `charged` (what it has
    // charged so far), charges the difference and moves `charged` up to it; true when it charged.
    bool charge_due(std::uint64_t nodes, std::uint64_t& charged) {
        if (nodes - charged < kPollNodes) return false;
        charge(nodes - charged);
        charged = nodes;
        return true;
    }
    // Charges nodes without checking the limits (work done outside the workers: root ordering).
    void count(std::uint64_t nodes) noexcept { charged_.fetch_add(nodes, std::memory_order_relaxed); }
    [[nodiscard]] std::uint64_t charged() const noexcept { return charged_.load(std::memory_order_relaxed); }
    // Sends `p` to the progress callback (if any), serialised with every other report.
    void report(const RootProgress& p);
    [[nodiscard]] bool reports() const noexcept { return progress_ != nullptr; }
    [[nodiscard]] std::chrono::milliseconds elapsed() const noexcept {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_);
    }

private:
    SolveLimits limits_;
    Clock::time_point start_;
    const ProgressCallback* progress_;
    std::atomic<std::uint64_t> charged_{0};
    std::atomic<bool> expired_{false};
    std::atomic<std::int64_t> last_report_ms_{0};
    std::mutex report_mutex_;
};

}  // namespace reversi::endgame
