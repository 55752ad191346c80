#pragma once
// Feature extraction for the pattern evaluation (no incremental state: everything from the bitboards).
//   extract_features            the fast path of this build: extract_features_digit_planes with
//                               AVX-512 BW+VBMI (the default -march=native build here), else
//                               extract_features_pext with BMI2, else extract_features_portable
//   extract_features_digit_planes  (AVX-512 BW+VBMI only) every instance at once, one byte lane each:
//                               ten byte permutes of the board's digits and Horner's rule in bytes
//   extract_features_pext       (BMI2 only) the same board images, each shape gathered at its canonical
//                               place by one pext per side (no per-shape bit shuffling)
//   extract_features_portable   the 8 symmetric images of the board, then each shape read at its
//                               canonical place with a few shifts and a binary-to-ternary table
//   extract_features_reference  square by square from the instance lists (the specification the fast
//                               path is checked against in tests/eval/ and timed against in reversi-train bench)
#include "engine/board/position.hpp"
#include "engine/eval/pattern/instance_indices.hpp"
#include "engine/eval/pattern/pattern_layout.hpp"

namespace reversi::eval {

// Whether extract_features is extract_features_digit_planes in this build (AVX-512 BW and VBMI). Then an
// evaluation that extracts its indices costs about what one that keeps them move by move does (the
// endgame solver's ordering searches choose by it: engine/endgame/move_ordering.cpp).
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
inline constexpr bool kDigitPlaneExtraction = true;
#else
inline constexpr bool kDigitPlaneExtraction = false;
#endif

// The side to move's perspective: digit 1 = pos.player, 2 = pos.opponent. Only the 8x8 board is meant.
// Precondition: pos.player and pos.opponent are disjoint (true of every Position the board layer builds;
// overlapping sets would index past the shape tables).
void extract_features(const Position& pos, FeatureIndices& out) noexcept;
void extract_features_portable(const Position& pos, FeatureIndices& out) noexcept;
#ifdef __BMI2__
void extract_features_pext(const Position& pos, FeatureIndices& out) noexcept;
#endif
#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
void extract_features_digit_planes(const Position& pos, FeatureIndices& out) noexcept;
#endif
void extract_features_reference(const Position& pos, FeatureIndices& out) noexcept;

// The evaluation's hot path: the sums of the weights the position activates in two phase tables at
// once (the blended phases), or in one pre-blended table, without storing the indices (the same indices
// as extract_features).
struct PhaseSums {
    int first = 0;
    int second = 0;
};
[[nodiscard]] PhaseSums sum_feature_weights(const Position& pos, const std::int16_t* first,
                                            const std::int16_t* second) noexcept;
// The sum of the weights the position activates in one table (a blended table: blended_weights.hpp).
[[nodiscard]] int sum_feature_weights(const Position& pos, const std::int16_t* table) noexcept;
// The same sum with the instances' indices (kept move by move: instance_indices.hpp) and the side to
// move's legal moves given (the search has them already: a horizon leaf tests whether the game is over,
// the ordering counts the replies); only the other scalar features are computed from the position.
// Preconditions: indices == instance_indices(pos), moves == legal_moves(pos.player, pos.opponent).
[[nodiscard]] int sum_feature_weights(const Position& pos, const InstanceIndices& indices, const std::int16_t* table,
                                      Bitboard moves) noexcept;

[[nodiscard]] constexpr int empties_of(const Position& pos) noexcept {
    return 64 - popcount(pos.player | pos.opponent);
}
[[nodiscard]] constexpr int phase_of(const Position& pos) noexcept { return phase_of_empties(empties_of(pos)); }

}  // namespace reversi::eval
