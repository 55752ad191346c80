// The selective (probcut) passes before the exact one (engine/endgame/selectivity.hpp): forced on at low
// empties, the solver must still return the plain solver's exact scores; one and two threads agree.
#include <doctest/doctest.h>

#include <atomic>

#include "engine/board/notation.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;

namespace {

endgame::SolveOptions forced_selective(int threads = 1) {
    endgame::SolveOptions o;
    o.threads = threads;
    o.selective = true;
    o.selective_min_empties = 12;
    o.probcut_empties = 10;
    return o;
}

}  // namespace

TEST_CASE("selective passes: exact scores equal the plain solver on 120 positions with 12-13 empties") {
    endgame::EndgameSolver solver(16);
    REQUIRE(solver.pattern() != nullptr);  // probcut needs the pattern evaluation
    std::atomic<bool> stop{false};
    const int counts[] = {100, 20};
    std::uint64_t probcuts = 0;
    int passes = 0;
    int positions = 0;
    for (int empties = 12; empties <= 13; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, counts[empties - 12], 900 + empties)) {
            CAPTURE(to_board_string(pos));
            solver.clear();
            const auto r = solver.solve(pos, forced_selective(), stop);
            REQUIRE(r);
            REQUIRE(r->completed);
            REQUIRE(r->bound == Bound::Exact);
            REQUIRE(endgame_test::plain_confirms(pos, r->score));
            REQUIRE(endgame_test::plain_confirms(pos.play_move(r->best_move), -r->score));
            probcuts += r->probcuts;
            passes += r->passes;
            ++positions;
        }
    }
    // The passes really ran and cut: more than one pass per position, many probcuts.
    CHECK(passes > positions * endgame::kMaxSelectivityLevel);
    CHECK(probcuts > 100);
    MESSAGE("passes " << passes << ", probcuts " << probcuts << " on " << positions << " positions");
}

TEST_CASE("selective passes: the same scores as the exact-only solver on 48 positions with 15-17 empties, and WLD") {
    endgame::EndgameSolver selective(16);
    endgame::EndgameSolver exact(16);
    std::atomic<bool> stop{false};
    endgame::SolveOptions plain;
    plain.selective = false;
    std::uint64_t probcuts = 0;
    for (int empties = 15; empties <= 17; ++empties) {
        for (const auto& pos :
             endgame_test::positions_with_empties(empties, reversi::testing::sanitized_count(16, 6), 1900 + empties)) {
            CAPTURE(to_board_string(pos));
            selective.clear();
            exact.clear();
            const auto a = selective.solve(pos, forced_selective(), stop);
            const auto b = exact.solve(pos, plain, stop);
            REQUIRE(a);
            REQUIRE(b);
            REQUIRE(a->completed);
            CHECK(b->probcuts == 0);
            REQUIRE(a->score == b->score);
            probcuts += a->probcuts;
            // The best move reaches the score.
            const auto after = exact.solve(pos.play_move(a->best_move), plain, stop);
            REQUIRE(after);
            REQUIRE(-after->score == a->score);
            if (empties % 2 == 0) {
                auto wld = forced_selective();
                wld.alpha = -1;
                wld.beta = 1;
                selective.clear();
                const auto w = selective.solve(pos, wld, stop);
                REQUIRE(w);
                REQUIRE((w->score > 0) == (b->score > 0));
                REQUIRE((w->score < 0) == (b->score < 0));
            }
        }
    }
    CHECK(probcuts > reversi::testing::sanitized_count(1000, 300));
}

TEST_CASE("selective passes: one and two threads agree on 8 positions with 17 empties") {
    endgame::EndgameSolver one(16);
    endgame::EndgameSolver two(16);
    std::atomic<bool> stop{false};
    for (const auto& pos : endgame_test::positions_with_empties(17, reversi::testing::sanitized_count(8, 3), 5151)) {
        one.clear();
        two.clear();
        const auto a = one.solve(pos, forced_selective(1), stop);
        const auto b = two.solve(pos, forced_selective(2), stop);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->score == b->score);
        const auto after = one.solve(pos.play_move(b->best_move), forced_selective(1), stop);
        REQUIRE(after);
        CHECK(-after->score == b->score);
    }
}
