// What the solver counts: nodes (positions entered, as Egaroucid counts them) and, beside them, the
// children that the fast move ordering scores without entering them, which Edax 4.6 counts as nodes too.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>

#include "engine/board/moves.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;

TEST_CASE("score_listed_moves counts the children it scores unsearched: all but the table's moves below 12 empties") {
    const auto pattern = eval::PatternEvaluator::embedded_default();
    REQUIRE(pattern);
    int lists = 0;
    for (int empties = 7; empties <= 14; ++empties) {
        for (const auto& pos :
             endgame_test::positions_with_empties(empties, 40, 517 + static_cast<unsigned>(empties))) {
            const Bitboard moves = legal_moves(pos.player, pos.opponent);
            if (!moves) continue;
            // The table's two moves, when the position has them: the first two legal squares.
            const Move hash_move = static_cast<Move>(first_square(moves));
            const Bitboard rest = moves & (moves - 1);
            const Move second = rest ? static_cast<Move>(first_square(rest)) : kNoMove;
            endgame::EndgameMoveList list;
            endgame::list_moves(list, pos.player, pos.opponent, moves);
            std::uint64_t nodes = 0;
            const int scored = endgame::score_listed_moves(list, 0, pos.player, pos.opponent, empties, hash_move,
                                                           second, nodes, &*pattern);
            const int others = popcount(moves) - 1 - (second != kNoMove ? 1 : 0);
            CAPTURE(empties);
            if (empties < 12) {
                CHECK(scored == others);
                CHECK(nodes == 0);
            } else {
                // From 12 empties each such child is entered by its ordering search: a node, not scored apart.
                CHECK(scored == 0);
                CHECK(nodes >= static_cast<std::uint64_t>(others));
            }
            ++lists;
        }
    }
    CHECK(lists > 200);
}

TEST_CASE("EndgameSolver: scored children none at 6 empties, repeatable at one thread, the same share at two threads") {
    std::atomic<bool> stop{false};
    endgame::EndgameSolver a(16);
    endgame::EndgameSolver b(16);
    for (const auto& pos : endgame_test::positions_with_empties(6, 20, 61)) {
        const auto r = a.solve(pos, endgame::SolveOptions{}, stop);
        REQUIRE(r);
        CHECK(r->scored_children == 0);  // only the shallow search, which orders by parity
    }
    // One thread: the same count from a fresh table, a share of the nodes of the same order.
    std::uint64_t nodes1 = 0;
    std::uint64_t scored1 = 0;
    std::uint64_t nodes2 = 0;
    std::uint64_t scored2 = 0;
    const int count = reversi::testing::sanitized_count(6, 2);
    for (const auto& pos : endgame_test::positions_with_empties(18, count, 6406)) {
        endgame::SolveOptions one;
        endgame::SolveOptions two;
        two.threads = 2;
        two.split_empties = 12;  // splits deep in the tree: helpers count much of the work
        a.clear();
        const auto first = a.solve(pos, one, stop);
        a.clear();
        const auto again = a.solve(pos, one, stop);
        b.clear();
        const auto shared = b.solve(pos, two, stop);
        REQUIRE(first);
        REQUIRE(again);
        REQUIRE(shared);
        CHECK(first->scored_children > 0);
        CHECK(again->scored_children == first->scored_children);
        CHECK(again->nodes == first->nodes);
        nodes1 += first->nodes;
        scored1 += first->scored_children;
        nodes2 += shared->nodes;
        scored2 += shared->scored_children;
    }
    const double share1 = static_cast<double>(scored1) / static_cast<double>(nodes1);
    const double share2 = static_cast<double>(scored2) / static_cast<double>(nodes2);
    MESSAGE("scored children per node: one thread " << share1 << ", two threads " << share2);
    CHECK(share1 > 0.1);
    CHECK(share1 < 2.0);
    // Without the helpers' counts the share at two threads would fall to about half.
    CHECK(share2 > 0.75 * share1);
    CHECK(share2 < 1.33 * share1);
}
