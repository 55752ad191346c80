#include "clock_games.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "tools/loadtest/line_client.hpp"

namespace reversi::stress {

namespace {

using Clock = std::chrono::steady_clock;

// Busy threads until destroyed.
class CpuHogs {
public:
    explicit CpuHogs(int count) {
        for (int i = 0; i < count; ++i) {
            threads_.emplace_back([this] {
                std::uint64_t x = 1;
                while (!stop_.load(std::memory_order_relaxed)) {
                    for (int k = 0; k < 100000; ++k) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                    sink_.store(x, std::memory_order_relaxed);
                }
            });
        }
    }
    ~CpuHogs() {
        stop_.store(true, std::memory_order_relaxed);
        for (auto& t : threads_) t.join();
    }
    CpuHogs(const CpuHogs&) = delete;
    CpuHogs& operator=(const CpuHogs&) = delete;

private:
    std::atomic<bool> stop_{false};
    std::atomic<std::uint64_t> sink_{0};
    std::vector<std::thread> threads_;
};

struct GameOutcome {
    bool forfeit = false;
    bool error = false;
    int moves = 0;
    std::int64_t worst_overstep_ms = 0;
    std::int64_t least_left_ms = 0;
    std::string what;
};

struct Game {
    Position pos = start_position();
    std::string moves;  // " f5 d6 ..." as sent after "position startpos moves"
    void play(Move m) {
        pos = pos.play_move(m);
        moves += " " + move_to_string(m);
    }
};

Game random_opening(int plies, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Game g;
    for (int i = 0; i < plies && !g.pos.is_over(); ++i) {
        if (g.pos.must_pass()) {
            g.play(kPass);
            continue;
        }
        std::vector<int> squares_list;
        for (int sq : squares(g.pos.moves())) squares_list.push_back(sq);
        g.play(static_cast<Move>(squares_list[rng() % squares_list.size()]));
    }
    return g;
}

std::unique_ptr<loadtest::Child> start_engine(const StressConfig& config) {
    auto child = std::make_unique<loadtest::Child>(config.engine, std::vector<std::string>{});
    if (config.move_overhead) {
        child->io().send("setoption name MoveOverhead value " + std::to_string(*config.move_overhead));
    }
    child->io().send("isready");
    if (!child->io().wait_for("readyok", std::chrono::seconds(30))) throw std::runtime_error("engine not ready");
    return child;
}

// One game; engines[0] plays black.
GameOutcome play_game(const StressConfig& config, std::array<loadtest::Child*, 2> engines, Game game) {
    GameOutcome out;
    std::int64_t clock[2] = {config.base.count(), config.base.count()};
    out.least_left_ms = clock[0];
    out.worst_overstep_ms = -clock[0];
    const std::string inc = std::to_string(config.increment.count());
    for (auto* e : engines) e->io().send("ucinewgame");
    while (!game.pos.is_over()) {
        if (game.pos.must_pass()) {
            game.play(kPass);
            continue;
        }
        const int side = game.pos.side == Color::Black ? 0 : 1;
        auto& io = engines[static_cast<std::size_t>(side)]->io();
        io.send("position startpos moves" + game.moves);
        const auto start = Clock::now();
        io.send("go btime " + std::to_string(clock[0]) + " wtime " + std::to_string(clock[1]) + " binc " + inc +
                " winc " + inc);
        const auto answer = io.wait_for("bestmove ", Millis(clock[side] + 30'000));
        const auto used = std::chrono::duration_cast<Millis>(Clock::now() - start).count();
        if (!answer) return out.error = true, out.what = "no bestmove", out;
        const auto move = parse_move(answer->substr(9));
        if (!move || !apply_move(game.pos, *move)) return out.error = true, out.what = "illegal: " + *answer, out;
        out.worst_overstep_ms = std::max(out.worst_overstep_ms, used - clock[side]);
        clock[side] -= used;
        out.least_left_ms = std::min(out.least_left_ms, clock[side]);
        ++out.moves;
        if (clock[side] < 0) {
            out.forfeit = true;
            out.what = "move " + std::to_string(out.moves) + " used " + std::to_string(used) + " ms, " +
                       std::to_string(-clock[side]) + " ms beyond the clock";
            return out;
        }
        clock[side] += config.increment.count();
        game.play(*move);
    }
    return out;
}

void add(StressReport& report, const GameOutcome& g) {
    ++report.games;
    report.moves += g.moves;
    if (g.error) {
        ++report.errors;
        return;
    }
    report.forfeits += g.forfeit;
    report.worst_overstep_ms =
        report.games == 1 ? g.worst_overstep_ms : std::max(report.worst_overstep_ms, g.worst_overstep_ms);
    report.least_left_ms = report.games == 1 ? g.least_left_ms : std::min(report.least_left_ms, g.least_left_ms);
    report.mean_least_left_ms += (static_cast<double>(g.least_left_ms) - report.mean_least_left_ms) / report.games;
}

}  // namespace

StressReport run_clock_games(const StressConfig& config) {
    const auto start = Clock::now();
    CpuHogs hogs(config.hogs);
    auto a = start_engine(config);
    auto b = start_engine(config);
    StressReport report;
    for (int g = 0; g < config.games; ++g) {
        const Game opening = random_opening(config.opening_plies, config.seed + static_cast<std::uint64_t>(g / 2));
        const std::array<loadtest::Child*, 2> engines = g % 2 == 0 ? std::array<loadtest::Child*, 2>{a.get(), b.get()}
                                                                   : std::array<loadtest::Child*, 2>{b.get(), a.get()};
        const GameOutcome outcome = play_game(config, engines, opening);
        add(report, outcome);
        if (!outcome.what.empty()) spdlog::warn("game {}: {}", g + 1, outcome.what);
        if (outcome.error) {  // a fresh pair for the next game
            a = start_engine(config);
            b = start_engine(config);
        }
        if ((g + 1) % 10 == 0) {
            spdlog::info("{} games, {} forfeits, worst overstep {} ms, least clock left {} ms", report.games,
                         report.forfeits, report.worst_overstep_ms, report.least_left_ms);
        }
    }
    report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return report;
}

}  // namespace reversi::stress
