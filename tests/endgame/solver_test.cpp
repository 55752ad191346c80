// EndgameSolver against the plain solver (exact, windows, WLD, threads) and its error handling.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "engine/board/notation.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"

using namespace reversi;
using endgame_test::plain_solve;

TEST_CASE("EndgameSolver::solve equals the plain solver on 794 positions with 10-16 empties") {
    endgame::EndgameSolver solver(16);
    std::atomic<bool> stop{false};
    const int counts[] = {500, 200, 60, 20, 8, 4, 2};  // 10..16 empties: fewer where the plain solver is slow
    for (int empties = 10; empties <= 16; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, counts[empties - 10], 300 + empties)) {
            endgame::SolveOptions options;
            options.threads = 1 + (empties & 1);
            const auto r = solver.solve(pos, options, stop);
            REQUIRE(r);
            CAPTURE(to_board_string(pos));
            REQUIRE(r->completed);
            REQUIRE(r->bound == endgame::ScoreBound::Exact);
            // The plain solver confirms the score, and that the best move (or pass) reaches it.
            const int truth = r->score;
            REQUIRE(endgame_test::plain_confirms(pos, truth));
            REQUIRE(!r->pv.empty());
            REQUIRE(endgame_test::plain_confirms(pos.play_move(r->best_move), -truth));
            // Win/loss/draw with the window (-1, 1).
            endgame::SolveOptions wld;
            wld.alpha = -1;
            wld.beta = 1;
            const auto w = solver.solve(pos, wld, stop);
            REQUIRE(w);
            REQUIRE((w->score > 0) == (truth > 0));
            REQUIRE((w->score < 0) == (truth < 0));
            if (empties % 3 == 0) solver.clear();
        }
    }
}

TEST_CASE("EndgameSolver: one and two threads agree on 10 positions with 17 empties") {
    endgame::EndgameSolver one(16);
    endgame::EndgameSolver two(16);
    std::atomic<bool> stop{false};
    for (const auto& pos : endgame_test::positions_with_empties(17, 10, 4242)) {
        endgame::SolveOptions o1;
        endgame::SolveOptions o2;
        o2.threads = 2;
        const auto a = one.solve(pos, o1, stop);
        const auto b = two.solve(pos, o2, stop);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->score == b->score);
        // The two best moves have the same value.
        const auto after_a = one.solve(pos.play_move(a->best_move), o1, stop);
        const auto after_b = one.solve(pos.play_move(b->best_move), o1, stop);
        REQUIRE(after_a);
        REQUIRE(after_b);
        CHECK(after_a->score == after_b->score);
        CHECK(-after_a->score == a->score);
    }
}

TEST_CASE("EndgameSolver: errors, finished games, passes and stop") {
    endgame::EndgameSolver solver(1);
    std::atomic<bool> stop{false};
    // Variant boards are rejected with a message.
    const auto six = solver.solve(start_position(Variant::Board6x6), {}, stop);
    REQUIRE(!six);
    CHECK(six.error().message.find("standard 8x8") != std::string::npos);
    endgame::SolveOptions bad;
    bad.alpha = 3;
    bad.beta = 3;
    CHECK(!solver.solve(start_position(), bad, stop));
    bad.alpha = -70;
    bad.beta = 0;
    CHECK(!solver.solve(start_position(), bad, stop));
    endgame::SolveOptions zero_threads;
    zero_threads.threads = 0;
    CHECK(!solver.solve(start_position(), zero_threads, stop));

    // A finished game: the final score, no move.
    auto over = parse_board(std::string(60, 'X') + "---- O");
    REQUIRE(over);
    const auto done = solver.solve(*over, {}, stop);
    REQUIRE(done);
    CHECK(done->best_move == kNoMove);
    CHECK(done->score == over->final_score());

    // The side to move must pass: best move is pass and the score is minus the opponent's.
    for (const auto& pos : endgame_test::positions_with_empties(12, 400, 99)) {
        if (!pos.must_pass()) continue;
        const auto r = solver.solve(pos, {}, stop);
        REQUIRE(r);
        CHECK(r->best_move == kPass);
        CHECK(r->score == plain_solve(pos));
        CHECK(r->pv.front() == kPass);
    }

    // A set stop flag ends the solve at once, marked incomplete.
    std::atomic<bool> stopped{true};
    const auto start = endgame_test::positions_with_empties(30, 1, 1).front();
    const auto s = solver.solve(start, {}, stopped);
    REQUIRE(s);
    CHECK(!s->completed);
    CHECK((start.moves() & square_bit(s->best_move)) != 0);
}
