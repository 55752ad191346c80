// SolveOptions::wld_first (timed play): a win/loss/draw pass before the exact one. The exact score must
// not change; the WLD pass's answer must be right, and it must be kept when the exact pass is stopped.
#include <doctest/doctest.h>

#include <atomic>

#include "engine/board/notation.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"
#include "tests/support/ffo_positions.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;

namespace {

int outcome_sign(int x) { return (x > 0) - (x < 0); }

endgame::SolveOptions timed_options(int threads = 1) {
    endgame::SolveOptions o;
    o.threads = threads;
    o.wld_first = true;
    return o;
}

}  // namespace

TEST_CASE("wld_first: exact scores and WLD passes agree with the plain solver on 234 positions with 10-16 empties") {
    endgame::EndgameSolver solver(16);
    const std::atomic<bool> stop{false};
    using reversi::testing::sanitized_count;  // a third of the positions under a sanitizer
    const int counts[] = {sanitized_count(100, 34), sanitized_count(60, 20), sanitized_count(40, 14),
                          sanitized_count(20, 7),   sanitized_count(8, 3),   sanitized_count(4, 2),
                          sanitized_count(2, 1)};
    int wins = 0;
    int losses = 0;
    int draws = 0;
    for (int empties = 10; empties <= 16; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, counts[empties - 10], 7100 + empties)) {
            CAPTURE(to_board_string(pos));
            if (empties % 2 == 0) solver.clear();
            const auto r = solver.solve(pos, timed_options(1 + (empties & 1)), stop);
            REQUIRE(r);
            REQUIRE(r->completed);
            REQUIRE(r->bound == Bound::Exact);
            REQUIRE(endgame_test::plain_confirms(pos, r->score));
            REQUIRE(endgame_test::plain_confirms(pos.play_move(r->best_move), -r->score));
            if (pos.must_pass()) continue;  // the solver answers the pass at once, with no root pass
            REQUIRE(r->wld_pass);
            const endgame::ResolvedPass& w = *r->wld_pass;
            CHECK(w.level == 0);
            // Its score is a bound of the right sign (0 exactly for a draw).
            REQUIRE(outcome_sign(w.score) == outcome_sign(r->score));
            if (r->score > 0) CHECK(w.score <= r->score);
            if (r->score < 0) CHECK(w.score >= r->score);
            // For a win or a draw, its move keeps it.
            if (r->score >= 0) {
                const int after = -endgame_test::plain_solve(pos.play_move(w.best_move));
                CHECK(outcome_sign(after) == outcome_sign(r->score));
            }
            wins += r->score > 0;
            losses += r->score < 0;
            draws += r->score == 0;
        }
    }
    CHECK(wins > sanitized_count(20, 6));  // all three outcomes were met
    CHECK(losses > sanitized_count(20, 6));
    CHECK(draws > 0);
    MESSAGE("wins " << wins << ", losses " << losses << ", draws " << draws);
}

TEST_CASE("wld_first: without the option there is no WLD pass, and a WLD window gets none") {
    endgame::EndgameSolver solver(16);
    const std::atomic<bool> stop{false};
    const Position pos = endgame_test::positions_with_empties(14, 1, 77).front();
    const auto plain = solver.solve(pos, {}, stop);
    REQUIRE(plain);
    CHECK(!plain->wld_pass);
    endgame::SolveOptions wld = timed_options();
    wld.alpha = -1;
    wld.beta = 1;
    const auto w = solver.solve(pos, wld, stop);
    REQUIRE(w);
    CHECK(!w->wld_pass);
    CHECK(outcome_sign(w->score) == outcome_sign(plain->score));
}

TEST_CASE("wld_first: stopped in the exact pass, the solve keeps the WLD pass's proven win") {
    // FFO #40: 20 empties, +38 for the side to move. A first solve records the nodes at the end of the
    // WLD pass (the first level-0 pass end, after the selective passes: a lower bound >= 1); a second one with a budget
    // just past them is stopped in the exact pass and still holds the WLD pass.
    const Position pos = testing::board(testing::kFfo40);
    const std::atomic<bool> stop{false};
    std::uint64_t wld_nodes = 0;
    Move wld_move = kNoMove;
    {
        endgame::EndgameSolver solver(16);
        const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) {
            if (p.pass_end && p.selectivity_level == 0 && wld_nodes == 0) {  // after the selective ones
                CHECK(p.bound == Bound::Lower);
                CHECK(p.score >= 1);
                wld_nodes = p.nodes;
                wld_move = p.move;
            }
        };
        const auto full =
            solver.solve(pos, timed_options(), endgame::SolveLimits{&stop, std::nullopt, std::nullopt}, progress);
        REQUIRE(full);
        REQUIRE(full->completed);
        CHECK(full->score == 38);
        REQUIRE(full->wld_pass);
        CHECK(full->wld_pass->best_move == wld_move);
    }
    REQUIRE(wld_nodes > 0);
    endgame::EndgameSolver solver(16);
    const auto r = solver.solve(pos, timed_options(), endgame::SolveLimits{&stop, std::nullopt, wld_nodes + 1});
    REQUIRE(r);
    CHECK(!r->completed);
    REQUIRE(r->wld_pass);
    CHECK(r->wld_pass->score >= 1);
    CHECK(r->wld_pass->best_move == wld_move);
}

TEST_CASE("wld_first: a selective win/loss/draw pass first changes no exact score, and a proven pass supersedes it") {
    // wld_first_level (timed play from kTimedWldEmpties): a WLD pass at 87 % before the exact one, where
    // the root has more empties than the probcut's fewest. The exact score, the exact WLD pass and the
    // last pass must be those of a solve without it.
    endgame::EndgameSolver solver(16);
    const std::atomic<bool> stop{false};
    using reversi::testing::sanitized_count;
    int selective_seen = 0;
    for (int empties = 15; empties <= 17; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, sanitized_count(12, 4), 7300 + empties)) {
            if (pos.must_pass()) continue;
            CAPTURE(to_board_string(pos));
            endgame::SolveOptions options = timed_options();
            options.wld_first_level = 3;
            int selective_ends = 0;
            const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) {
                if (p.pass_end && p.selectivity_level == 3) ++selective_ends;
            };
            solver.clear();
            const auto r =
                solver.solve(pos, options, endgame::SolveLimits{&stop, std::nullopt, std::nullopt}, progress);
            REQUIRE(r);
            REQUIRE(r->completed);
            REQUIRE(r->bound == Bound::Exact);
            REQUIRE(endgame_test::plain_confirms(pos, r->score));
            CHECK(selective_ends == 1);
            selective_seen += selective_ends;
            REQUIRE(r->wld_pass);
            CHECK(r->wld_pass->wld_window);
            REQUIRE(outcome_sign(r->wld_pass->score) == outcome_sign(r->score));
            REQUIRE(r->last_pass);
            CHECK(r->last_pass->level == 0);  // the selective pass is superseded
        }
    }
    CHECK(selective_seen > 0);
}
