// The Othello move ordering (engine/search/move_ordering.hpp): asking the table for the children's
// buckets as it plays them must not change the order, and it says when it did ask.
#include <doctest/doctest.h>

#include <vector>

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
