// The endgame solver on a borrowed worker pool: a pool with fewer workers than the solve's threads (none
// at all, or all of them busy) still gives the exact scores, and solves create no thread.
#include <doctest/doctest.h>

#include <atomic>
#include <latch>

#include "engine/board/notation.hpp"
#include "engine/core/worker_pool.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;

TEST_CASE("EndgameSolver two threads on a borrowed pool: no worker, or the only worker busy, still solves") {
    endgame::EndgameSolver one(16);
    WorkerPool none;
    WorkerPool busy(1);
    endgame::EndgameSolver on_none(16, &none);
    endgame::EndgameSolver on_busy(16, &busy);
    std::atomic<bool> stop{false};
    endgame::SolveOptions o1;
    endgame::SolveOptions o2;
    o2.threads = 2;
    o2.split_empties = 14;  // splits down the PV as well as at the root
    for (const auto& pos : endgame_test::positions_with_empties(18, reversi::testing::sanitized_count(4, 2), 8080)) {
        CAPTURE(to_board_string(pos));
        const auto a = one.solve(pos, o1, stop);
        REQUIRE(a);
        const auto b = on_none.solve(pos, o2, stop);
        REQUIRE(b);
        CHECK(b->completed);
        CHECK(a->score == b->score);
        // The one worker is held by another group's task for the whole solve: the splits' helpers are
        // then run by the solving thread itself when it joins them.
        std::latch release(1);
        TaskGroup holder(busy);
        holder.run([&] { release.wait(); });
        const auto c = on_busy.solve(pos, o2, stop);
        release.count_down();
        holder.wait();
        REQUIRE(c);
        CHECK(c->completed);
        CHECK(a->score == c->score);
    }
    CHECK(none.threads_created() == 0);
    CHECK(busy.threads_created() == 1);
}

TEST_CASE("EndgameSolver two threads: solves on a borrowed pool create no thread and agree with one thread") {
    endgame::EndgameSolver one(16);
    WorkerPool pool(1);
    endgame::EndgameSolver two(16, &pool);
    std::atomic<bool> stop{false};
    endgame::SolveOptions o1;
    endgame::SolveOptions o2;
    o2.threads = 2;
    for (const auto& pos : endgame_test::positions_with_empties(16, 12, 9090)) {
        const auto a = one.solve(pos, o1, stop);
        const auto b = two.solve(pos, o2, stop);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->score == b->score);
    }
    CHECK(pool.threads_created() == 1);
}

TEST_CASE(
    "EndgameSolver three threads on a worker pool of one or no worker: unstarted helpers run on the solving thread") {
    endgame::EndgameSolver one(16);
    WorkerPool none;
    WorkerPool single(1);
    endgame::EndgameSolver on_none(16, &none);
    endgame::EndgameSolver on_single(16, &single);
    std::atomic<bool> stop{false};
    endgame::SolveOptions o1;
    endgame::SolveOptions o3;
    o3.threads = 3;  // two helper tasks per split: at least one finds no free worker
    o3.split_empties = 14;
    for (const auto& pos : endgame_test::positions_with_empties(17, 3, 7070)) {
        CAPTURE(to_board_string(pos));
        const auto a = one.solve(pos, o1, stop);
        REQUIRE(a);
        for (auto* solver : {&on_none, &on_single}) {
            const auto b = solver->solve(pos, o3, stop);
            REQUIRE(b);
            CHECK(b->completed);
            CHECK(a->score == b->score);
        }
    }
    CHECK(none.threads_created() == 0);
    CHECK(single.threads_created() == 1);
}
