// The Othello move ordering (engine/search/move_ordering.hpp): asking the table for the children's
// buckets as it plays them must not change the order, and it says when it did ask; near the horizon
// the order by square classes is the stable sort's.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "engine/eval/heuristic.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/search/move_ordering.hpp"
#include "engine/search/transposition_table.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;

namespace {

const eval::PatternEvaluator& ordering_pattern() {
    static const eval::PatternEvaluator p = *eval::PatternEvaluator::embedded_default();
    return p;
}

}  // namespace

TEST_CASE("OthelloOrder: asking the table for the children's buckets keeps the order of every mode") {
    TranspositionTable table(1);
    const std::vector<Position> positions = testing::random_positions(Variant::Standard, 600, 4242);
    const MoveOrdering modes[] = {MoveOrdering::Normal, MoveOrdering::Evaluated, MoveOrdering::Fixed,
                                  MoveOrdering::None};
    int asked = 0;
    int compared = 0;
    for (const MoveOrdering mode : modes) {
        const OthelloOrder order(mode, {27, 36, 0, 63}, &ordering_pattern());
        for (std::size_t i = 0; i < positions.size(); i += 3) {
            const OthelloState s(positions[i], i % 2 == 0);  // with and without the kept indices
            MoveList generated;
            s.generate_moves(generated);
            const Move tt_move = generated.size() > 1 && i % 4 < 2 ? generated[1] : kNoMove;
            for (int depth = 1; depth <= 4; ++depth) {
                MoveList plain = generated;
                MoveList with_table = generated;
                order(s, plain, tt_move, depth);
                const bool did_ask = order(s, with_table, tt_move, depth, &table);
                REQUIRE(std::vector<Move>(plain.begin(), plain.end()) ==
                        std::vector<Move>(with_table.begin(), with_table.end()));
                const bool plays_children = (mode == MoveOrdering::Normal || mode == MoveOrdering::Evaluated) &&
                                            depth >= 2 && generated.size() > 1;
                CHECK(did_ask == plays_children);
                CHECK_FALSE(order(s, with_table, tt_move, depth, nullptr));
                asked += did_ask ? 1 : 0;
                ++compared;
            }
        }
    }
    CHECK(asked > compared / 4);  // the orderings that play the children did ask
}

namespace {

// The header's Normal score without the reply count (fewer than 2 plies left), the table's move first.
int near_horizon_score(const Position& pos, Move m, Move tt_move) {
    if (m == tt_move) return 1 << 20;
    const BoardGeometry g = board_geometry(pos.playable);
    const Bitboard near_empty_corner = neighbours(g.corners & pos.empties());
    const Bitboard bit = square_bit(m);
    return ((bit & g.corners) ? 64 : 0) - ((bit & g.x_squares & near_empty_corner) ? 32 : 0) -
           ((bit & g.c_squares & near_empty_corner) ? 8 : 0);
}

std::vector<Move> stable_sorted(const Position& pos, const MoveList& list, Move tt_move) {
    std::vector<Move> out(list.begin(), list.end());
    std::stable_sort(out.begin(), out.end(), [&](Move a, Move b) {
        return near_horizon_score(pos, a, tt_move) > near_horizon_score(pos, b, tt_move);
    });
    return out;
}

}  // namespace

// One ply from the horizon the ordering gathers the moves by square class instead of sorting them
// (move_ordering.cpp): the order must be the stable sort's, whatever the board, the table's move and the
// list's order (a list that is not ascending takes the sort).
TEST_CASE("OthelloOrder: near the horizon the order is the stable sort of the square score on every board") {
    const Variant variants[] = {Variant::Standard, Variant::Board6x6, Variant::Board4x4, Variant::Diamond};
    int compared = 0;
    int long_lists = 0;
    for (const Variant variant : variants) {
        const std::vector<Position> positions = testing::random_positions(variant, 400, 777);
        for (const MoveOrdering mode : {MoveOrdering::Normal, MoveOrdering::Evaluated}) {
            const OthelloOrder order(mode, {}, variant == Variant::Standard ? &ordering_pattern() : nullptr);
            for (std::size_t i = 0; i < positions.size(); ++i) {
                const OthelloState s(positions[i]);
                MoveList generated;
                s.generate_moves(generated);
                if (generated.size() < 2) continue;
                const Move tt_move = i % 3 == 0 ? kNoMove : generated[static_cast<int>(i) % generated.size()];
                MoveList rotated = generated;  // as the search hands it over: the table's move first
                if (Move* it = std::find(rotated.begin(), rotated.end(), tt_move); it != rotated.end()) {
                    std::rotate(rotated.begin(), it, it + 1);
                }
                MoveList reversed = generated;  // not ascending: the sort
                std::reverse(reversed.begin(), reversed.end());
                for (const MoveList& given : {generated, rotated, reversed}) {
                    for (int depth = 0; depth <= 1; ++depth) {
                        MoveList list = given;
                        CHECK_FALSE(order(s, list, tt_move, depth, nullptr));
                        REQUIRE(std::vector<Move>(list.begin(), list.end()) == stable_sorted(s.pos, given, tt_move));
                        ++compared;
                    }
                }
                long_lists += generated.size() > 2 ? 1 : 0;
            }
        }
    }
    CHECK(compared > 5000);
    CHECK(long_lists > 1000);
}
