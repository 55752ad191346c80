#pragma once
// The clock stress benchmark: clock games between two engine instances (UCI over pipes) while CPU hogs
// compete for the cores, charged strictly as a GUI charges them (from writing `go` to reading
// `bestmove`, no grace): a move that takes longer than the clock it had is a time forfeit.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace reversi::stress {

using Millis = std::chrono::milliseconds;

struct StressConfig {
    std::string engine;  // path of reversi-engine
    int games = 1000;
    Millis base{3000};  // each side's clock
    Millis increment{30};
    int hogs = 2;           // busy threads beside the games
    int opening_plies = 4;  // random legal plies before the clocks start (seeded per game)
    std::uint64_t seed = 1;
    std::optional<int> move_overhead;  // setoption MoveOverhead for both engines (default: the engine's)
};

struct StressReport {
    int games = 0;
    int forfeits = 0;
    int errors = 0;  // no answer, illegal move: not a clock result
    std::int64_t moves = 0;
    std::int64_t worst_overstep_ms = 0;  // max over moves of (time used - clock it had); > 0 only on forfeits
    std::int64_t least_left_ms = 0;      // the lowest clock after any move
    double mean_least_left_ms = 0;       // per game, averaged
    double seconds = 0;
};

// Plays the games and logs progress (spdlog, every 10 games). Throws when an engine cannot be started.
[[nodiscard]] StressReport run_clock_games(const StressConfig& config);

}  // namespace reversi::stress
