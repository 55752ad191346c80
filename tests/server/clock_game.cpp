#include "clock_game.hpp"

#include <algorithm>

namespace reversi::testing {

ClockGame play_clock_game(LineChannel& io, std::int64_t clock_ms, std::int64_t increment_ms) {
    using Clock = std::chrono::steady_clock;
    ClockGame game;
    // The engine's start-up (decoding and blending the weights, allocating its tables; seconds under
    // ThreadSanitizer beside CPU hogs) is not charged to the first move.
    if (!io.wait_ready()) {
        game.failure = "no readyok within 60 s";
        return game;
    }
    std::int64_t clock[2] = {clock_ms, clock_ms};  // black, white
    game.least_left_ms = clock_ms;
    game.worst_overstep_ms = -clock_ms;
    std::string moves;
    int side = 0;
    for (; game.plies < 80; ++game.plies) {
        io.send("position startpos" + (moves.empty() ? std::string() : " moves" + moves));
        const std::string inc = std::to_string(increment_ms);
        const auto start = Clock::now();
        io.send("go btime " + std::to_string(clock[0]) + " wtime " + std::to_string(clock[1]) + " binc " + inc +
                " winc " + inc);
        const auto lines = io.read_until("bestmove ", std::chrono::milliseconds(clock[side] + 30'000));
        const auto used = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
        if (lines.empty()) {
            game.failure = "no bestmove at ply " + std::to_string(game.plies);
            return game;
        }
        const std::string move = lines.back().substr(9);
        if (move == "none") {
            game.finished = true;
            return game;
        }
        game.worst_overstep_ms = std::max(game.worst_overstep_ms, used - clock[side]);
        clock[side] -= used;
        game.least_left_ms = std::min(game.least_left_ms, clock[side]);
        if (clock[side] <= 0) {
            game.forfeit = true;
            game.failure = "ply " + std::to_string(game.plies) + ": used " + std::to_string(used) + " ms, clock " +
                           std::to_string(clock[side]) + " ms";
            return game;
        }
        clock[side] += increment_ms;
        moves += " " + move;
        side ^= 1;
    }
    game.failure = "no end after 80 plies";
    return game;
}

CpuHogs::CpuHogs(int count, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (int i = 0; i < count; ++i) {
        threads_.emplace_back([this, until] {
            std::uint64_t local = 0;
            while (!stop_.load(std::memory_order_relaxed)) {
                for (int k = 0; k < 100000; ++k) local = local * 6364136223846793005ULL + 1442695040888963407ULL;
                spins_.fetch_add(1, std::memory_order_relaxed);
                if (std::chrono::steady_clock::now() >= until) break;
            }
            if (local == 42) spins_.fetch_add(0, std::memory_order_relaxed);  // keeps the loop
        });
    }
}

CpuHogs::~CpuHogs() {
    stop_.store(true, std::memory_order_relaxed);
    for (auto& t : threads_) t.join();
}

}  // namespace reversi::testing
