// The exact solver takes the midgame search's limits itself (solve_control.hpp): node budget, deadline and
// stop flag, checked by its workers, and reports progress (root moves, pass ends, a periodic report).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/support/ffo_positions.hpp"

using namespace reversi;

namespace {

using Clock = std::chrono::steady_clock;

using testing::board;
using testing::kFfo40;
using testing::kFfo53;

}  // namespace

TEST_CASE("solver limits: a node budget stops the solve near the budget with one or two threads") {
    const Position pos = board(kFfo53);
    for (int threads : {1, 2}) {
        endgame::EndgameSolver solver(16);
        const std::atomic<bool> stop{false};
        endgame::SolveOptions options;
        options.threads = threads;
        const std::uint64_t budget = 200000;
        const auto r = solver.solve(pos, options, endgame::SolveLimits{&stop, std::nullopt, budget});
        REQUIRE(r);
        CAPTURE(threads);
        CHECK(!r->completed);
        CHECK(r->nodes >= budget);
        // Each thread charges its nodes every kPollNodes: the overshoot is a few polls per thread.
        CHECK(r->nodes < budget + 64 * endgame::SolveControl::kPollNodes);
    }
}

TEST_CASE("solver limits: a deadline ends a long solve promptly without any watcher") {
    const Position pos = board(kFfo53);
    endgame::EndgameSolver solver(16);
    const std::atomic<bool> stop{false};
    endgame::SolveOptions options;
    options.threads = 2;
    const auto t0 = Clock::now();
    const auto r = solver.solve(pos, options, endgame::SolveLimits{&stop, t0 + std::chrono::milliseconds(150), {}});
    const auto took = Clock::now() - t0;
    REQUIRE(r);
    CHECK(!r->completed);
    CHECK(r->best_move < kPass);
    CHECK(took < std::chrono::seconds(2));
}

TEST_CASE("solver limits: the caller's stop flag raised from another thread ends the solve") {
    const Position pos = board(kFfo53);
    endgame::EndgameSolver solver(16);
    std::atomic<bool> stop{false};
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        stop.store(true);
    });
    const auto t0 = Clock::now();
    const auto r = solver.solve(pos, endgame::SolveOptions{}, stop);
    const auto took = Clock::now() - t0;
    stopper.join();
    REQUIRE(r);
    CHECK(!r->completed);
    CHECK(took < std::chrono::seconds(2));
}

TEST_CASE("solver progress: root moves, pass ends and the solve's result agree") {
    const Position pos = board(kFfo40);
    endgame::EndgameSolver solver(16);
    const std::atomic<bool> stop{false};
    std::vector<endgame::RootProgress> reports;
    const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) { reports.push_back(p); };
    const auto r = solver.solve(pos, endgame::SolveOptions{}, stop, progress);
    REQUIRE(r);
    CHECK(r->score == 38);
    int pass_ends = 0;
    int selective = 0;
    for (const auto& p : reports) {
        if (p.pass_end) ++pass_ends;
        if (p.selectivity_level > 0) ++selective;
    }
    CHECK(pass_ends == r->passes);  // every pass that completed says so
    CHECK(selective > 0);           // 20 empties: selective passes first
    REQUIRE(!reports.empty());
    const auto& last = reports.back();
    CHECK(last.pass_end);
    CHECK(last.selectivity_level == 0);
    CHECK(last.score == 38);
    CHECK(last.bound == Bound::Exact);
    CHECK(last.move == r->best_move);
}

TEST_CASE("solve control: the periodic report comes after a second without reports, from charge") {
    const std::atomic<bool> stop{false};
    std::vector<endgame::RootProgress> reports;
    const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) { reports.push_back(p); };
    endgame::SolveControl control(endgame::SolveLimits{&stop, std::nullopt, std::nullopt}, Clock::now(), &progress);
    control.charge(10);
    CHECK(reports.empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(1050));
    control.charge(10);
    REQUIRE(reports.size() == 1);
    CHECK(reports[0].move == kNoMove);
    CHECK(!reports[0].pass_end);
    CHECK(reports[0].nodes == 20);
    CHECK(reports[0].time >= std::chrono::milliseconds(1000));
    control.charge(10);
    CHECK(reports.size() == 1);  // the next one is due a second later
    CHECK(!control.halted());
}

TEST_CASE("solve control: node budget and deadline raise halted, and so does the caller's flag") {
    std::atomic<bool> stop{false};
    endgame::SolveControl budget(endgame::SolveLimits{&stop, std::nullopt, 100}, Clock::now());
    budget.charge(99);
    CHECK(!budget.halted());
    budget.charge(1);
    CHECK(budget.halted());
    endgame::SolveControl late(endgame::SolveLimits{&stop, Clock::now() - std::chrono::milliseconds(1), {}},
                               Clock::now());
    CHECK(!late.halted());  // checked at the next charge
    late.charge(1);
    CHECK(late.halted());
    endgame::SolveControl flag(endgame::SolveLimits{&stop, std::nullopt, std::nullopt}, Clock::now());
    CHECK(!flag.halted());
    stop.store(true);
    CHECK(flag.halted());
}

TEST_CASE("solver progress: a long solve reports at least once a second") {
    const Position pos = board(kFfo53);
    endgame::EndgameSolver solver(16);
    const std::atomic<bool> stop{false};
    std::vector<std::chrono::milliseconds> times;
    const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) { times.push_back(p.time); };
    const auto t0 = Clock::now();
    const auto r = solver.solve(pos, endgame::SolveOptions{},
                                endgame::SolveLimits{&stop, t0 + std::chrono::milliseconds(3500), {}}, progress);
    const auto end = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    REQUIRE(r);
    REQUIRE(!r->completed);  // FFO #53 takes far longer than 3.5 s
    times.push_back(end);
    std::chrono::milliseconds previous{0};
    for (const auto t : times) {
        CHECK(t - previous < std::chrono::milliseconds(1500));  // 1 s, with room for a loaded machine
        previous = t;
    }
}

TEST_CASE("endgame selectivity levels in percent are the two-sided normal confidence of their t") {
    for (int level = 1; level <= endgame::kMaxSelectivityLevel; ++level) {
        const double t = endgame::kSelectivityT[static_cast<std::size_t>(level)];
        const double percent = 100.0 * std::erf(t / std::sqrt(2.0));
        CAPTURE(level);
        CHECK(endgame::kSelectivityPercent[static_cast<std::size_t>(level)] == static_cast<int>(std::lround(percent)));
    }
    CHECK(endgame::kSelectivityPercent[0] == 100);
}
