// The instances' indices kept move by move (instance_indices.hpp) against the reference features, and
// the evaluation from them against the evaluation from the position.
#include <doctest/doctest.h>

#include <random>

#include "engine/board/random_move.hpp"
#include "engine/board/variant.hpp"
#include "engine/eval/pattern/features.hpp"
#include "engine/eval/pattern/instance_indices.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/games/othello_game.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::eval;

namespace {

// own[i] and other[i] from the reference features of pos and of pos with the sides swapped.
InstanceIndices reference_indices(const Position& pos) {
    FeatureIndices mine{};
    FeatureIndices swapped{};
    extract_features_reference(pos, mine);
    extract_features_reference(pos.pass(), swapped);
    InstanceIndices out;
    for (std::size_t i = 0; i < kInstanceCount; ++i) {
        add_to_lane(out.own, i, mine[i] - kInstanceOffsets[i]);
        add_to_lane(out.other, i, swapped[i] - kInstanceOffsets[i]);
    }
    return out;
}

}  // namespace

TEST_CASE("instance indices: computed from the squares, they equal the reference features on 20,000 positions") {
    for (const Position& pos : testing::random_positions(Variant::Standard, 20000, 31)) {
        REQUIRE(instance_indices(pos) == reference_indices(pos));
    }
}

TEST_CASE("instance indices: kept move by move along 2,000 random games, passes included, they never drift") {
    std::mt19937_64 rng(41);
    int passes = 0;
    int moves = 0;
    for (int game = 0; game < 2000; ++game) {
        OthelloState s(start_position(Variant::Standard), true);
        while (!s.is_over()) {
            MoveList list;
            s.generate_moves(list);
            const Move m = list[static_cast<int>(rng() % static_cast<std::uint64_t>(list.size()))];
            passes += m == kPass ? 1 : 0;
            ++moves;
            s = s.play(m);
            REQUIRE(s.indexed);
            REQUIRE(s.indices == reference_indices(s.pos));
        }
    }
    CHECK(passes > 100);  // the pass's swap is exercised too
    CHECK(moves > 100000);
}

TEST_CASE(
    "instance indices: the evaluation from them (and from the legal moves given) equals the evaluation from the "
    "position") {
    auto evaluator = PatternEvaluator::embedded_default();
    REQUIRE(evaluator);
    REQUIRE(evaluator->blended());
    for (const Position& pos : testing::random_positions(Variant::Standard, 20000, 53)) {
        const InstanceIndices indices = instance_indices(pos);
        REQUIRE(evaluator->evaluate_units(pos, indices) == evaluator->evaluate_units(pos));
        REQUIRE(evaluator->evaluate_units(pos, indices, pos.moves()) == evaluator->evaluate_units(pos));
        REQUIRE(evaluator->evaluate(pos, indices) == evaluator->evaluate(pos));
    }
}

TEST_CASE("instance indices: other boards keep none (their states carry zeros)") {
    std::mt19937_64 rng(5);
    OthelloState s(start_position(Variant::Board6x6), true);
    for (int ply = 0; ply < 10 && !s.is_over(); ++ply) {
        MoveList list;
        s.generate_moves(list);
        s = s.play(list[static_cast<int>(rng() % static_cast<std::uint64_t>(list.size()))]);
        CHECK(!s.indexed);
        CHECK(s.indices == InstanceIndices{});
    }
}
