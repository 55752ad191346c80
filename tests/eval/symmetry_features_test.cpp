// Board symmetries and pattern features: the fast paths against square-by-square references.
#include <doctest/doctest.h>

#include <array>
#include <random>
#include <set>
#include <vector>

#include "engine/eval/pattern/features.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::eval;

namespace {

Bitboard reference_transform(int g, Bitboard b) {
    Bitboard out = 0;
    for (int sq = 0; sq < 64; ++sq) {
        if (b & square_bit(sq)) out |= square_bit(map_square(g, sq));
    }
    return out;
}

}  // namespace

TEST_CASE("bitboard symmetries agree with the square map on random boards") {
    std::mt19937_64 rng(7);
    std::set<int> images_of_b1;
    for (int g = 0; g < kSymmetryCount; ++g) {
        images_of_b1.insert(map_square(g, 1));
        for (int sq = 0; sq < 64; ++sq) CHECK(unmap_square(g, map_square(g, sq)) == sq);
        for (int i = 0; i < 2000; ++i) {
            const Bitboard b = rng();
            REQUIRE(transform(g, b) == reference_transform(g, b));
        }
    }
    CHECK(images_of_b1.size() == 8);  // the 8 symmetries are distinct
}

TEST_CASE("pattern instances: distinct square sets, each inside the board, shapes as documented") {
    std::set<std::pair<int, Bitboard>> sets;
    for (const auto& inst : kInstances) {
        Bitboard mask = 0;
        for (int k = 0; k < kShapes[inst.shape].size; ++k) {
            REQUIRE(inst.squares[k] >= 0);
            REQUIRE(inst.squares[k] < 64);
            mask |= square_bit(inst.squares[k]);
        }
        CHECK(popcount(mask) == kShapes[inst.shape].size);
        CHECK(sets.insert({inst.shape, mask}).second);
    }
    // Every square is covered by some instance and corners by many.
    Bitboard covered = 0;
    int corner_a1 = 0;
    for (const auto& [shape, mask] : sets) {
        covered |= mask;
        corner_a1 += (mask & 1) ? 1 : 0;
    }
    CHECK(covered == ~Bitboard{0});
    // diag8, 2 edges, corner 3x3, 2 corner 2x5, triangle, 2 edge blocks, cross
    CHECK(corner_a1 == 10);
    // Each shape has as many instances as its symmetric images differ: the triangle and the cross are
    // their own mirror images in the a1-h8 diagonal, the edge block in the column mirror.
    std::array<int, kShapeCount> per_shape{};
    for (const auto& inst : kInstances) ++per_shape[inst.shape];
    CHECK(per_shape == std::array<int, kShapeCount>{4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 8, 4, 4, 4});
}

TEST_CASE("fast features equal the reference features on 100,000 random positions") {
    const auto positions = testing::random_positions(Variant::Standard, 100000, 99);
    FeatureIndices fast{};
    FeatureIndices portable{};
    FeatureIndices ref{};
    for (const auto& pos : positions) {
        extract_features(pos, fast);
        extract_features_portable(pos, portable);
        extract_features_reference(pos, ref);
        REQUIRE(fast == ref);
        REQUIRE(portable == ref);
#ifdef __BMI2__
        FeatureIndices pext{};
        extract_features_pext(pos, pext);
        REQUIRE(pext == ref);
#endif
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
        FeatureIndices planes{};
        extract_features_digit_planes(pos, planes);
        REQUIRE(planes == ref);
#endif
        for (int i = 0; i < kFeatureCount; ++i) REQUIRE(fast[i] < static_cast<std::uint32_t>(kWeightsPerPhase));
    }
}

TEST_CASE("the fused weight sums and the blended evaluation equal sums over the reference features") {
    auto evaluator = PatternEvaluator::embedded_default();
    REQUIRE(evaluator);
    const WeightSet& weights = evaluator->weights();
    const auto positions = testing::random_positions(Variant::Standard, 20000, 7);
    FeatureIndices ref{};
    for (const auto& pos : positions) {
        extract_features_reference(pos, ref);
        const PhaseBlend blend = phase_blend(empties_of(pos));
        int first = 0;
        int second = 0;
        for (std::uint32_t f : ref) {
            first += weights.phase(blend.phase)[f];
            second += weights.phase(blend.other)[f];
        }
        const PhaseSums sums = sum_feature_weights(pos, weights.phase(blend.phase), weights.phase(blend.other));
        REQUIRE(sums.first == first);
        REQUIRE(sums.second == second);
        const int blended =
            (first * (kBlendDenominator - blend.other_weight) + second * blend.other_weight) / kBlendDenominator;
        REQUIRE(evaluator->evaluate_units(pos) == blended);
    }
}

TEST_CASE("the one-table weight sum equals the sum over the reference features, for any int16 weights") {
    // Weights over the whole int16 range, the extremes included: the fast path (four gathers of 32-bit
    // words with AVX-512 VBMI) must sign-extend each weight and drop its neighbour, whatever their values.
    std::mt19937_64 rng(29);
    std::uniform_int_distribution<int> weight(-32768, 32767);
    std::vector<std::int16_t> table(static_cast<std::size_t>(kWeightsPerPhase));
    for (std::size_t i = 0; i < table.size(); ++i) {
        table[i] = static_cast<std::int16_t>(i % 7 == 0 ? (i % 2 ? -32768 : 32767) : weight(rng));
    }
    FeatureIndices ref{};
    for (const auto& pos : testing::random_positions(Variant::Standard, 20000, 31)) {
        extract_features_reference(pos, ref);
        int sum = 0;
        for (std::uint32_t f : ref) sum += table[f];
        REQUIRE(sum_feature_weights(pos, table.data()) == sum);
    }
}

TEST_CASE("features of crafted positions") {
    // Empty board: every pattern reads configuration 0; mobility 0 for both; 64 empties are even.
    Position empty{0, 0};
    FeatureIndices f{};
    extract_features(empty, f);
    for (int i = 0; i < kInstanceCount; ++i)
        CHECK(f[i] == static_cast<std::uint32_t>(kShapeOffsets[kInstances[i].shape]));
    CHECK(f[kInstanceCount] == kMobilityOffset);
    CHECK(f[kInstanceCount + 2] == kPotentialOffset);
    CHECK(f[kInstanceCount + 3] == kOpponentPotentialOffset);
    CHECK(f[kInstanceCount + 4] == kParityOffset);
    // A single disc of the side to move on a1: digit 1 at square 0 of each instance that starts at a1.
    Position a1{square_bit(0), 0};
    extract_features(a1, f);
    int ones = 0;
    for (int i = 0; i < kInstanceCount; ++i) {
        const auto local = f[i] - static_cast<std::uint32_t>(kShapeOffsets[kInstances[i].shape]);
        if (local != 0) {
            ++ones;
            CHECK(local == 1);  // a1 is square 0 of every canonical shape that contains it
        }
    }
    // edge+2x, 2x5 corner and edge block twice (row and column), the diagonal, 3x3 corner, triangle, cross
    CHECK(ones == 10);
    CHECK(f[kInstanceCount + 2] == kPotentialOffset);              // no disc of the other side
    CHECK(f[kInstanceCount + 3] == kOpponentPotentialOffset + 3);  // b1, a2, b2 touch a1
    CHECK(f[kInstanceCount + 4] == kParityOffset + 1);             // 63 empties: odd
    for (int e = 0; e < kEdgeCount; ++e) CHECK(f[kFirstEdgeFeature + e] == kEdgeMobilityOffset);  // no move

    // Edge mobility: the side to move (X: d4 e5 g7 g2) can take a1 (over b2 c3); the other side (O: b2 c3
    // f6 f3 c2) can take h8 (over g7) and h1 (over g2). Edges in the edge+2x instances' order: a1..h1,
    // a8..h8, a1..a8, h1..h8; bits 0-7 the side to move's moves, 8-15 the other side's.
    const Position corners{square_bit(27) | square_bit(36) | square_bit(54) | square_bit(14),
                           square_bit(9) | square_bit(18) | square_bit(45) | square_bit(21) | square_bit(10)};
    REQUIRE((corners.player & corners.opponent) == 0);
    extract_features(corners, f);
    FeatureIndices ref{};
    extract_features_reference(corners, ref);
    const Bitboard mine = corners.moves();
    const Bitboard theirs = corners.opponent_moves();
    REQUIRE((mine & square_bit(0)) != 0);     // a1 for the side to move
    REQUIRE((theirs & square_bit(63)) != 0);  // h8 for the other side
    REQUIRE((theirs & square_bit(7)) != 0);   // h1 too
    const auto edge = [&](int e) { return f[kFirstEdgeFeature + e] - static_cast<std::uint32_t>(kEdgeMobilityOffset); };
    for (int e = 0; e < kEdgeCount; ++e) CHECK(f[kFirstEdgeFeature + e] == ref[kFirstEdgeFeature + e]);
    CHECK((edge(0) & 1u) != 0);             // a1 is square 0 of the first row
    CHECK((edge(2) & 1u) != 0);             // and of column a
    CHECK((edge(1) & (1u << 15)) != 0);     // h8 is square 7 of the last row, the other side's bit
    CHECK((edge(3) & (1u << 15)) != 0);     // and of column h
    CHECK((edge(0) & (1u << 15)) != 0);     // h1: square 7 of the first row
    CHECK((edge(3) & (1u << 8)) != 0);      // and square 0 of column h
    for (int e = 0; e < kEdgeCount; ++e) {  // every bit is a legal move on that edge
        for (int k = 0; k < 8; ++k) {
            const Bitboard sq = square_bit(kEdgeSquares[static_cast<std::size_t>(e)][static_cast<std::size_t>(k)]);
            CHECK(((edge(e) >> k) & 1u) == ((mine & sq) != 0 ? 1u : 0u));
            CHECK(((edge(e) >> (k + 8)) & 1u) == ((theirs & sq) != 0 ? 1u : 0u));
        }
    }
}
