// The last-empties solvers and the shallow/hashed searches against the plain solver.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <random>
#include <utility>

#include "engine/board/moves.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/last_empties.hpp"
#include "engine/endgame/search_worker.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"

using namespace reversi;
using endgame_test::plain_solve;

namespace {

// A fail-soft result r of a search with window (alpha, beta) is right when: r <= alpha implies
// truth <= r; r >= beta implies truth >= r; otherwise r == truth.
bool fail_soft_consistent(int r, int truth, int alpha, int beta) {
    if (r <= alpha) return truth <= r;
    if (r >= beta) return truth >= r;
    return r == truth;
}

}  // namespace

TEST_CASE("kSquareClasses: disjoint classes covering the board, each closed under the eight symmetries") {
    Bitboard all = 0;
    for (const Bitboard c : endgame::kSquareClasses) {
        CHECK((all & c) == 0);
        all |= c;
        for (int sq : squares(c)) {
            const int r = sq / 8;
            const int f = sq % 8;
            for (const auto& [r2, f2] : {std::pair{r, 7 - f}, std::pair{7 - r, f}, std::pair{f, r}}) {
                CHECK((c & square_bit(r2 * 8 + f2)) != 0);  // these three generate the eight symmetries
            }
        }
    }
    CHECK(all == ~Bitboard{0});
    CHECK(endgame::kSquareClasses[0] == kCorners);
    CHECK(endgame::kSquareClasses[8] == 0x0042000000004200ULL);  // the X-squares b2, g2, b7, g7 near the end
}

TEST_CASE("class_ordered_squares lists each square of a set once, class by class, on 10,000 random sets") {
    std::mt19937_64 rng(77);
    for (int i = 0; i < 10'000; ++i) {
        const Bitboard b = rng() & rng();
        std::array<int, 64> out{};
        const int n = endgame::class_ordered_squares(b, out);
        REQUIRE(n == popcount(b));
        Bitboard seen = 0;
        std::size_t last_class = 0;
        for (int k = 0; k < n; ++k) {
            REQUIRE((seen & square_bit(out[static_cast<std::size_t>(k)])) == 0);
            seen |= square_bit(out[static_cast<std::size_t>(k)]);
            std::size_t cls = 0;
            while (!(endgame::kSquareClasses[cls] & square_bit(out[static_cast<std::size_t>(k)]))) ++cls;
            REQUIRE(cls >= last_class);
            last_class = cls;
        }
        REQUIRE(seen == b);
    }
}

TEST_CASE("odd_quadrants equals the quadrants counted one by one on 100,000 sets of empty squares") {
    std::mt19937_64 rng(45);
    int odd_seen = 0;
    for (int i = 0; i < 100000; ++i) {
        // From nearly all to nearly no empty squares.
        Bitboard empties = rng();
        for (int k = 0; k < i % 5; ++k) empties &= rng();
        Bitboard expected = 0;
        for (const Bitboard q : endgame::kQuadrants) {
            if (popcount(empties & q) % 2 == 1) expected |= q;
        }
        REQUIRE(endgame::odd_quadrants(empties) == expected);
        odd_seen += popcount(expected) / 16;
    }
    CHECK(odd_seen > 100000);
}

TEST_CASE("flips_if_adjacent equals flips on every empty square of 4,000 positions, for both sides") {
    int moves = 0;
    for (int empties = 1; empties <= 16; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, 250, 300 + empties)) {
            for (int sq : squares(~(pos.player | pos.opponent))) {
                const Bitboard f = flips(pos.player, pos.opponent, sq);
                REQUIRE(endgame::flips_if_adjacent(pos.player, pos.opponent, sq) == f);
                REQUIRE(endgame::flips_if_adjacent(pos.opponent, pos.player, sq) ==
                        flips(pos.opponent, pos.player, sq));
                moves += f != 0;
            }
        }
    }
    CHECK(moves > 4000);  // the positions have moves to check, not only empty squares without any
}

TEST_CASE("last_flip_count equals the flips' count on every square of 200,000 boards with one empty square") {
    std::mt19937_64 rng(17);
    int moves = 0;
    for (int i = 0; i < 200000; ++i) {
        const int x = static_cast<int>(rng() % 64);
        const Bitboard P = rng() & ~square_bit(x);
        const Bitboard O = ~(P | square_bit(x));
        const int expected = popcount(flips(P, O, x));
        REQUIRE(endgame::last_flip_count(P, x) == expected);
        REQUIRE(endgame::last_flip_count(O, x) == popcount(flips(O, P, x)));
        moves += expected != 0;
    }
    CHECK(moves > 100000);  // most random boards give the move something to flip
}

TEST_CASE("solve_1..solve_4 equal the plain solver on 4,000 positions with 1-4 empties, all windows") {
    std::mt19937 rng(5);
    int checked = 0;
    for (int empties = 1; empties <= 4; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, 1000, 100 + empties)) {
            const int truth = plain_solve(pos);
            std::uint64_t nodes = 0;
            REQUIRE(endgame::solve_small(pos.player, pos.opponent, -64, 64, nodes) == truth);
            const int alpha = static_cast<int>(rng() % 129) - 65;
            const int beta = alpha + 1 + static_cast<int>(rng() % 20);
            const int r = endgame::solve_small(pos.player, pos.opponent, alpha, beta, nodes);
            CAPTURE(alpha);
            CAPTURE(beta);
            REQUIRE(fail_soft_consistent(r, truth, alpha, beta));
            ++checked;
        }
    }
    CHECK(checked == 4000);
}

TEST_CASE("the worker search equals the plain solver on 1,900 positions with 5-12 empties") {
    endgame::EndgameTT tt(4);
    std::atomic<bool> stop{false};
    endgame::SolveControl control(endgame::SolveLimits{&stop, std::nullopt, std::nullopt},
                                  std::chrono::steady_clock::now());
    std::mt19937 rng(9);
    for (int empties = 5; empties <= 12; ++empties) {
        const int count = empties <= 10 ? 300 : 50;
        for (const auto& pos : endgame_test::positions_with_empties(empties, count, 200 + empties)) {
            const int truth = plain_solve(pos);
            endgame::SearchWorker worker(tt, control);
            REQUIRE(worker.search(pos.player, pos.opponent, -64, 64) == truth);
            // Null windows around and away from the truth, with the table filled or not.
            if (rng() & 1) tt.clear();
            const int a = truth - 1 + 2 * static_cast<int>(rng() % 3) - 2;
            if (a >= -64 && a < 64) {
                const int r = worker.null_window(pos.player, pos.opponent, a);
                CAPTURE(a);
                REQUIRE(fail_soft_consistent(r, truth, a, a + 1));
            }
            REQUIRE(!worker.aborted());
        }
    }
}
