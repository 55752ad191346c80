#pragma once
// The pattern instances' ternary indices, kept up to date move by move (the search carries them in
// its states: engine/games/othello_game.hpp), so that an evaluation reads its 58 weights without
// computing the indices from the bitboards (board images, two pext per instance and two
// binary-to-ternary lookups each: about half of the evaluation's time without AVX-512).
//
// own[i] is the index of instance i (kInstances order) within its shape's table, digit 1 = the side to
// move and 2 = the other side (the index extract_features gives, less the shape's offset); other[i] is
// the same with the digits 1 and 2 swapped, which becomes `own` once the other side is to move. A move
// on square x that flips the squares F:
//   child.own   = parent.other + 2 * D[x] + sum of D[f]    (x becomes 2, each f goes from 1 to 2)
//   child.other = parent.own   +     D[x] - sum of D[f]    (x becomes 1, each f goes from 2 to 1)
// where D[s][i] is 3^k when square s is digit k of instance i, else 0 (kSquareDigits); a pass swaps the
// two. 64 lanes of 16 bits (3^10 - 1 = 59,048 fits), 4 AVX2 vectors a side: the updates are plain
// loops the compiler vectorises.
#include <array>
#include <cstdint>

#include "engine/board/position.hpp"
#include "engine/eval/pattern/pattern_layout.hpp"

namespace reversi::eval {

inline constexpr int kIndexLanes = 64;
static_assert(kInstanceCount <= kIndexLanes, "one 16-bit lane per instance");
static_assert(power_of_3(kMaxPatternSize) - 1 <= 0xffff, "an instance's index fits 16 bits");

using IndexLanes = std::array<std::uint16_t, kIndexLanes>;

// kSquareDigits[s][i]: the value of one unit of digit on square s in instance i's index (0 where the
// instance does not read s; lanes from kInstanceCount on are always 0).
inline constexpr std::array<IndexLanes, 64> kSquareDigits = [] {
    std::array<IndexLanes, 64> out{};
    for (int i = 0; i < kInstanceCount; ++i) {
        const PatternInstance& inst = kInstances[static_cast<std::size_t>(i)];
        for (int k = 0; k < kShapes[inst.shape].size; ++k) {
            out[static_cast<std::size_t>(inst.squares[static_cast<std::size_t>(k)])][static_cast<std::size_t>(i)] =
                static_cast<std::uint16_t>(power_of_3(k));
        }
    }
    return out;
}();

// Where each instance's shape table starts within a phase table (kShapeOffsets of its shape).
inline constexpr std::array<std::uint32_t, kInstanceCount> kInstanceOffsets = [] {
    std::array<std::uint32_t, kInstanceCount> out{};
    for (int i = 0; i < kInstanceCount; ++i) {
        out[static_cast<std::size_t>(i)] =
            static_cast<std::uint32_t>(kShapeOffsets[kInstances[static_cast<std::size_t>(i)].shape]);
    }
    return out;
}();

struct InstanceIndices {
    alignas(32) IndexLanes own{};
    alignas(32) IndexLanes other{};
    friend bool operator==(const InstanceIndices&, const InstanceIndices&) = default;
};

// The indices of pos computed from its discs (8x8 only; the start of an incremental line), as
// extract_features reads them (features.cpp).
[[nodiscard]] InstanceIndices instance_indices(const Position& pos) noexcept;

// The indices after the side to move plays `square`, flipping `flipped`.
[[nodiscard]] inline InstanceIndices after_move(const InstanceIndices& parent, int square, Bitboard flipped) noexcept {
    InstanceIndices child;
    const IndexLanes& placed = kSquareDigits[static_cast<std::size_t>(square)];
    for (std::size_t i = 0; i < kIndexLanes; ++i) {
        child.own[i] = static_cast<std::uint16_t>(parent.other[i] + 2 * placed[i]);
        child.other[i] = static_cast<std::uint16_t>(parent.own[i] + placed[i]);
    }
    for (int f : squares(flipped)) {
        const IndexLanes& turned = kSquareDigits[static_cast<std::size_t>(f)];
        for (std::size_t i = 0; i < kIndexLanes; ++i) {
            child.own[i] = static_cast<std::uint16_t>(child.own[i] + turned[i]);
            child.other[i] = static_cast<std::uint16_t>(child.other[i] - turned[i]);
        }
    }
    return child;
}

// The indices after the side to move passes.
[[nodiscard]] inline InstanceIndices after_pass(const InstanceIndices& parent) noexcept {
    return InstanceIndices{parent.other, parent.own};
}

}  // namespace reversi::eval
