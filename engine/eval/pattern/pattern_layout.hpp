#pragma once
// The features of the pattern evaluation and the layout of its weight table.
//
// A pattern shape is a list of squares in ascending order, at a fixed place on the board (its canonical
// placement). Its instances are the distinct square sets obtained under the 8 board symmetries; every
// instance of a shape shares the shape's weights. Instance i of shape t, reached by symmetry g, reads
// the squares S[k] of transform(g, board), i.e. the physical squares unmap_square(g, S[k]); square k
// contributes the ternary digit 0 (empty), 1 (side to move) or 2 (other side) times 3^k.
//
// Shapes (Logistello/Edax-style): rows 2, 3, 4 (and by symmetry the matching columns), the diagonals of
// length 8..4, the edge with its two X-squares, the 3x3 corner block and the 2x5 corner block; and three
// 10-square shapes that see what those cut apart: the corner triangle (a1-d1, a2-c2, a3-b3, a4), the edge
// block (a1, c1-f1, h1 and c2-f2) and the corner cross (a1-d4 on the diagonal with its two neighbouring
// diagonals, b1-d3 and a2-c4).
// Scalar features: the mobility of the side to move, the mobility of the other side (clamped to
// kMobilityCap), the potential mobility of each side (empty squares next to the other side's discs,
// clamped to kPotentialCap), the parity of the empty count (which also plays the role of a bias) and
// the edge mobility of each edge (which of its squares each side can play now; see kEdgeMobilityOffset).
//
// One weight table per game phase; the phase is a bucket of the empty-square count.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/eval/pattern/symmetry.hpp"

namespace reversi::eval {

inline constexpr int kMaxPatternSize = 10;

struct PatternShape {
    std::string_view name;
    int size;
    std::array<std::int8_t, kMaxPatternSize> squares;  // ascending; the first `size` are used
};

inline constexpr std::array<PatternShape, 14> kShapes = {{
    {"row2", 8, {8, 9, 10, 11, 12, 13, 14, 15}},
    {"row3", 8, {16, 17, 18, 19, 20, 21, 22, 23}},
    {"row4", 8, {24, 25, 26, 27, 28, 29, 30, 31}},
    {"diag8", 8, {0, 9, 18, 27, 36, 45, 54, 63}},
    {"diag7", 7, {1, 10, 19, 28, 37, 46, 55}},
    {"diag6", 6, {2, 11, 20, 29, 38, 47}},
    {"diag5", 5, {3, 12, 21, 30, 39}},
    {"diag4", 4, {4, 13, 22, 31}},
    {"edge+2x", 10, {0, 1, 2, 3, 4, 5, 6, 7, 9, 14}},
    {"corner3x3", 9, {0, 1, 2, 8, 9, 10, 16, 17, 18}},
    {"corner2x5", 10, {0, 1, 2, 3, 4, 8, 9, 10, 11, 12}},
    {"triangle", 10, {0, 1, 2, 3, 8, 9, 10, 16, 17, 24}},
    {"edge-block", 10, {0, 2, 3, 4, 5, 7, 10, 11, 12, 13}},
    {"cross", 10, {0, 1, 8, 9, 10, 17, 18, 19, 26, 27}},
}};
inline constexpr int kShapeCount = static_cast<int>(kShapes.size());

[[nodiscard]] constexpr int power_of_3(int n) noexcept {
    int p = 1;
    for (int i = 0; i < n; ++i) p *= 3;
    return p;
}

struct PatternInstance {
    std::uint8_t shape;
    std::uint8_t symmetry;
    std::array<std::int8_t, kMaxPatternSize> squares;  // physical squares, in digit order
};

namespace detail {

constexpr Bitboard instance_mask(int shape, int g) {
    Bitboard mask = 0;
    for (int k = 0; k < kShapes[shape].size; ++k) mask |= square_bit(unmap_square(g, kShapes[shape].squares[k]));
    return mask;
}

// The symmetries that give distinct instances of the shape (the first g for each square set).
constexpr bool is_new_instance(int shape, int g) {
    for (int h = 0; h < g; ++h) {
        if (instance_mask(shape, h) == instance_mask(shape, g)) return false;
    }
    return true;
}

constexpr int count_instances() {
    int n = 0;
    for (int g = 0; g < kSymmetryCount; ++g) {
        for (int t = 0; t < kShapeCount; ++t) n += is_new_instance(t, g) ? 1 : 0;
    }
    return n;
}

}  // namespace detail

inline constexpr int kInstanceCount = detail::count_instances();
static_assert(
    kInstanceCount == 58,
    "4 rows x3, 2+4x4 diagonals, 4 edges, 4 corners 3x3, 8 corners 2x5, 4 triangles, 4 edge blocks, 4 crosses");

// Ordered by symmetry, then by shape (the order the fast extractor visits them).
inline constexpr std::array<PatternInstance, kInstanceCount> kInstances = [] {
    std::array<PatternInstance, kInstanceCount> out{};
    int n = 0;
    for (int g = 0; g < kSymmetryCount; ++g) {
        for (int t = 0; t < kShapeCount; ++t) {
            if (!detail::is_new_instance(t, g)) continue;
            PatternInstance inst{static_cast<std::uint8_t>(t), static_cast<std::uint8_t>(g), {}};
            for (int k = 0; k < kMaxPatternSize; ++k) inst.squares[k] = -1;
            for (int k = 0; k < kShapes[t].size; ++k) {
                inst.squares[k] = static_cast<std::int8_t>(unmap_square(g, kShapes[t].squares[k]));
            }
            out[n++] = inst;
        }
    }
    return out;
}();

// Layout of one phase's weight table: the shapes' tables one after the other, then the scalar features.
inline constexpr std::array<int, kShapeCount + 1> kShapeOffsets = [] {
    std::array<int, kShapeCount + 1> out{};
    for (int t = 0; t < kShapeCount; ++t) out[t + 1] = out[t] + power_of_3(kShapes[t].size);
    return out;
}();
inline constexpr int kMobilityCap = 33;  // the largest mobility of a reachable Othello position
inline constexpr int kMobilityOffset = kShapeOffsets[kShapeCount];
inline constexpr int kOpponentMobilityOffset = kMobilityOffset + kMobilityCap + 1;
inline constexpr int kPotentialCap = 40;  // potential mobility: empty squares next to the other side's discs
inline constexpr int kPotentialOffset = kOpponentMobilityOffset + kMobilityCap + 1;
inline constexpr int kOpponentPotentialOffset = kPotentialOffset + kPotentialCap + 1;
inline constexpr int kParityOffset = kOpponentPotentialOffset + kPotentialCap + 1;
// Edge mobility: on each of the 4 edges (kEdgeSquares below: a1..h1, a8..h8, a1..a8, h1..h8), which
// of its 8 squares are legal moves for the side to move (bits 0-7) and for the other side (bits 8-15).
// Legality depends on whole lines through the board, which no disc pattern sees: who can take a corner
// now, who can enter an edge. One table of 2^16 entries shared by the 4 edges.
inline constexpr int kEdgeCount = 4;
inline constexpr int kEdgeMobilityOffset = kParityOffset + 2;
inline constexpr int kWeightsPerPhase = kEdgeMobilityOffset + (1 << 16);
static_assert(kWeightsPerPhase == 410100,
              "the feature layout changed: the header field weights-per-phase refuses old files");

// Every position activates exactly kFeatureCount weights of its phase's table: one per instance, then
// mobility, the other side's mobility, potential mobility, the other side's potential mobility, parity,
// and the edge mobility of the 4 edges (features kFirstEdgeFeature ..).
inline constexpr int kCountFeatureCount = 5;  // the mobility, potential mobility and parity features
inline constexpr int kScalarCount = kCountFeatureCount + kEdgeCount;
inline constexpr int kFeatureCount = kInstanceCount + kScalarCount;
inline constexpr int kFirstEdgeFeature = kInstanceCount + kCountFeatureCount;

// The 8 squares of each edge in the order its edge+2x instance reads them (the instance's first 8
// squares), edges in instance order: the order of the edge-mobility features and of their bits.
inline constexpr std::array<std::array<std::int8_t, 8>, kEdgeCount> kEdgeSquares = [] {
    std::array<std::array<std::int8_t, 8>, kEdgeCount> out{};
    std::size_t e = 0;
    for (const PatternInstance& inst : kInstances) {
        if (kShapes[inst.shape].name != "edge+2x") continue;
        for (std::size_t k = 0; k < 8; ++k) out[e][k] = inst.squares[k];
        ++e;
    }
    return out;
}();
static_assert(kEdgeSquares[0][0] == 0 && kEdgeSquares[0][7] == 7 && kEdgeSquares[1][0] == 56 &&
                  kEdgeSquares[1][7] == 63 && kEdgeSquares[2][1] == 8 && kEdgeSquares[2][7] == 56 &&
                  kEdgeSquares[3][0] == 7 && kEdgeSquares[3][7] == 63,
              "a1..h1, a8..h8, a1..a8, h1..h8: the order the fast edge extraction (features.cpp) reads");

// Game phases: buckets of kEmptiesPerPhase empty squares (0-5, 6-11, ..., 54-60).
inline constexpr int kEmptiesPerPhase = 6;
inline constexpr int kPhaseCount = 10;
[[nodiscard]] constexpr int phase_of_empties(int empties) noexcept {
    const int e = empties < 0 ? 0 : (empties > 59 ? 59 : empties);
    return e / kEmptiesPerPhase;
}

// Phase blending: each phase's table is fitted on its own bucket, so it is best at the bucket's centre
// (6p + 2.5 empties). The evaluation mixes it with the neighbouring phase's table in proportion to the
// distance from that centre: other_weight / kBlendDenominator = |empties - centre| / 6, at most 5/12 at a
// bucket's edge, where both neighbours weigh nearly alike (7/12 and 5/12), so the value changes smoothly
// across phase boundaries. No neighbour beyond the first and last phase (weight 0 there).
inline constexpr int kBlendDenominator = 2 * kEmptiesPerPhase;
struct PhaseBlend {
    int phase = 0;
    int other = 0;
    int other_weight = 0;  // of kBlendDenominator
};
[[nodiscard]] constexpr PhaseBlend phase_blend(int empties) noexcept {
    const int e = empties < 0 ? 0 : (empties > 59 ? 59 : empties);
    PhaseBlend b;
    b.phase = phase_of_empties(e);
    const int twice_offset = 2 * e - (2 * kEmptiesPerPhase * b.phase + kEmptiesPerPhase - 1);  // odd, within +-5
    b.other = b.phase + (twice_offset > 0 ? 1 : -1);
    b.other_weight = twice_offset > 0 ? twice_offset : -twice_offset;
    if (b.other < 0 || b.other >= kPhaseCount) {
        b.other = b.phase;
        b.other_weight = 0;
    }
    return b;
}
static_assert(phase_blend(0).other_weight == 0 && phase_blend(59).other_weight == 0, "no neighbour outside");
static_assert(phase_blend(11).phase == 1 && phase_blend(11).other == 2 && phase_blend(11).other_weight == 5);
static_assert(phase_blend(12).phase == 2 && phase_blend(12).other == 1 && phase_blend(12).other_weight == 5);
static_assert(phase_blend(14).other_weight == 1 && phase_blend(15).other == 3, "near the centre: 1/12");

// The weight indices (within a phase table) that a position activates.
using FeatureIndices = std::array<std::uint32_t, kFeatureCount>;

}  // namespace reversi::eval
