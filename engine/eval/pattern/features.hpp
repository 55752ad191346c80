#pragma once
// Feature extraction for the pattern evaluation (no incremental state: everything from the bitboards).
//   extract_features            fast path: the 8 symmetric images of the board, then each shape read at
//                               its canonical place with a few shifts and a binary-to-ternary table
//   extract_features_reference  square by square from the instance lists (the specification the fast
//                               path is checked against in tests/eval/ and timed against in reversi-train bench)
#include "engine/board/position.hpp"
#include "engine/eval/pattern/pattern_layout.hpp"

namespace reversi::eval {

// The side to move's perspective: digit 1 = pos.player, 2 = pos.opponent. Only the 8x8 board is meant.
// Precondition: pos.player and pos.opponent are disjoint (true of every Position the board layer builds;
// overlapping sets would index past the shape tables).
void extract_features(const Position& pos, FeatureIndices& out) noexcept;
void extract_features_reference(const Position& pos, FeatureIndices& out) noexcept;

[[nodiscard]] constexpr int empties_of(const Position& pos) noexcept {
    return 64 - popcount(pos.player | pos.opponent);
}
[[nodiscard]] constexpr int phase_of(const Position& pos) noexcept { return phase_of_empties(empties_of(pos)); }

}  // namespace reversi::eval
