#pragma once
// Clock games against the real engine binary, charged as a GUI charges them (from writing `go` to
// reading `bestmove`), and CPU hogs to run beside them.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "engine_process.hpp"

namespace reversi::testing {

struct ClockGame {
    bool finished = false;  // the game reached its end
    bool forfeit = false;   // a clock fell to 0 or below
    int plies = 0;
    std::int64_t least_left_ms = 0;      // the lowest clock after a move (before the increment)
    std::int64_t worst_overstep_ms = 0;  // the most a move used beyond the clock it had (<= 0: none)
    std::string failure;                 // why the game stopped early (forfeit, no answer)
};

// Plays one game against itself: both sides start with `clock_ms` and gain `increment_ms` per move. The
// clocks start after `isready` is answered, as in a GUI.
ClockGame play_clock_game(LineChannel& io, std::int64_t clock_ms, std::int64_t increment_ms);

// `count` threads that spin until destroyed or until `limit` has passed, whichever comes first.
class CpuHogs {
public:
    CpuHogs(int count, std::chrono::milliseconds limit);
    ~CpuHogs();
    CpuHogs(const CpuHogs&) = delete;
    CpuHogs& operator=(const CpuHogs&) = delete;
    // Spin iterations done so far (to check that the hogs ran).
    [[nodiscard]] std::uint64_t spins() const noexcept { return spins_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> spins_{0};
    std::vector<std::thread> threads_;
};

}  // namespace reversi::testing
