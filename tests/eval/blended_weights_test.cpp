// The blended tables (engine/eval/pattern/blended_weights.hpp): the one-table evaluation equals the
// blend of the two phase tables, and a set whose weights cannot be blended in an int16 keeps the two.
#include <doctest/doctest.h>

#include <memory>

#include "engine/eval/pattern/blended_weights.hpp"
#include "engine/eval/pattern/features.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::eval;

namespace {

// The evaluation as the two phase tables give it (the specification of the blended tables).
int two_table_units(const WeightSet& set, const Position& pos) {
    const PhaseBlend blend = phase_blend(empties_of(pos));
    const PhaseSums sums = sum_feature_weights(pos, set.phase(blend.phase), set.phase(blend.other));
    return (sums.first * (kBlendDenominator - blend.other_weight) + sums.second * blend.other_weight) /
           kBlendDenominator;
}

}  // namespace

TEST_CASE("blended tables: the one-table evaluation equals the two-table blend on 20,000 random positions") {
    auto evaluator = PatternEvaluator::embedded_default();
    REQUIRE(evaluator);
    REQUIRE(evaluator->blended());
    const auto positions = testing::random_positions(Variant::Standard, 20000, 11);
    int empties_seen = 0;
    for (const auto& pos : positions) {
        REQUIRE(evaluator->evaluate_units(pos) == two_table_units(evaluator->weights(), pos));
        empties_seen |= 1 << phase_of(pos);
    }
    CHECK(empties_seen == (1 << 10) - 1);  // every phase, so every kind of blend, was visited
}

TEST_CASE("blended tables: every entry is the blend of its two phases, at the limit of an int16 too") {
    auto set = std::make_shared<WeightSet>();
    set->trained_mask = kAllPhasesMask;
    for (int p = 0; p < kPhaseCount; ++p) {
        std::int16_t* w = set->phase(p);
        w[0] = static_cast<std::int16_t>(kMaxBlendableWeight);
        w[1] = static_cast<std::int16_t>(-kMaxBlendableWeight);
        w[2] = static_cast<std::int16_t>(p * 100 - 450);
        w[kWeightsPerPhase - 1] = static_cast<std::int16_t>(7 * p);
    }
    const auto blended = BlendedWeights::build(*set);
    REQUIRE(blended);
    for (int e = -1; e <= 61; ++e) {
        const PhaseBlend b = phase_blend(e);
        const int first_weight = kBlendDenominator - b.other_weight;
        for (int i : {0, 1, 2, kWeightsPerPhase - 1}) {
            const int expected = set->phase(b.phase)[i] * first_weight + set->phase(b.other)[i] * b.other_weight;
            REQUIRE(blended->table(e)[i] == expected);
        }
    }
}

TEST_CASE("blended tables: a weight beyond an int16's blend keeps the two phase tables, with the same values") {
    auto evaluator = PatternEvaluator::embedded_default();
    REQUIRE(evaluator);
    auto set = std::make_shared<WeightSet>(evaluator->weights());
    set->phase(3)[kMobilityOffset + 5] = static_cast<std::int16_t>(kMaxBlendableWeight + 1);
    CHECK_FALSE(BlendedWeights::build(*set));
    const PatternEvaluator large(set);
    CHECK_FALSE(large.blended());
    for (const auto& pos : testing::random_positions(Variant::Standard, 2000, 5)) {
        REQUIRE(large.evaluate_units(pos) == two_table_units(*set, pos));
    }
}
