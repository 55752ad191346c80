// SolveOptions::first_move and guess: what a search before the solve found (the Searcher's last midgame
// iteration). The move is searched first at the root and the score centres the aspiration window; they
// change the cost, never the result, whatever they are (a poor move, a wild guess, an illegal square).
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;

namespace {

// The first root move a solve reports (the first move of its first pass); kNoMove when none is.
struct FirstRootMove {
    Move move = kNoMove;
    endgame::ProgressCallback callback() {
        return [this](const endgame::RootProgress& p) {
            if (move == kNoMove && !p.pass_end) move = p.move;
        };
    }
};

}  // namespace

TEST_CASE("Solve hints: every legal first move and any guess give the plain solver's score, the move searched first") {
    const std::atomic<bool> stop{false};
    const endgame::SolveLimits limits{&stop, std::nullopt, std::nullopt};
    int hinted_roots = 0;
    for (int empties : {12, 14}) {
        const int count = reversi::testing::sanitized_count(empties == 14 ? 3 : 6, 2);
        for (const auto& pos : endgame_test::positions_with_empties(empties, count, 4900 + empties)) {
            CAPTURE(to_board_string(pos));
            const int truth = endgame_test::plain_solve(pos);
            for (const int sq : squares(pos.moves())) {
                for (const bool wld_first : {false, true}) {
                    // A fresh table each time: the root's order then comes from the hint, not from an
                    // earlier solve's entries.
                    endgame::EndgameSolver solver(4);
                    endgame::SolveOptions options;
                    options.wld_first = wld_first;
                    options.first_move = static_cast<Move>(sq);
                    options.guess = sq % 3 == 0 ? 64 : (sq % 3 == 1 ? -truth : truth);
                    FirstRootMove first;
                    const auto r = solver.solve(pos, options, limits, first.callback());
                    REQUIRE(r);
                    REQUIRE(r->completed);
                    CHECK(r->bound == Bound::Exact);
                    CHECK(r->score == truth);
                    CHECK(endgame_test::plain_confirms(pos.play_move(r->best_move), -truth));
                    CHECK(first.move == static_cast<Move>(sq));
                    ++hinted_roots;
                }
            }
        }
    }
    CHECK(hinted_roots > 50);
}

TEST_CASE("Solve hints: an illegal first move is ignored, and a side that must pass ignores both") {
    const std::atomic<bool> stop{false};
    const endgame::SolveLimits limits{&stop, std::nullopt, std::nullopt};
    for (const auto& pos : endgame_test::positions_with_empties(12, reversi::testing::sanitized_count(200, 50), 77)) {
        CAPTURE(to_board_string(pos));
        endgame::EndgameSolver solver(4);
        endgame::SolveOptions options;
        const Bitboard occupied = ~pos.empties();
        options.first_move = pos.must_pass() ? static_cast<Move>(first_square(pos.opponent_moves()))
                                             : static_cast<Move>(first_square(occupied));
        options.guess = 40;
        FirstRootMove first;
        const auto r = solver.solve(pos, options, limits, first.callback());
        REQUIRE(r);
        REQUIRE(r->completed);
        CHECK(r->score == endgame_test::plain_solve(pos));
        if (pos.must_pass()) {
            CHECK(r->best_move == kPass);
        } else {
            CHECK((pos.moves() & square_bit(first.move)) != 0);
            CHECK(first.move != options.first_move);
        }
    }
}
