#pragma once
// The pattern instances' ternary indices, kept up to date move by move (the search carries them in
// its states: engine/games/othello_game.hpp), so that an evaluation reads its 58 weights without
// computing the indices from the bitboards (board images, two pext per instance and two
// binary-to-ternary lookups each: about half of the evaluation's time without AVX-512).
//
// Lane i of `own` is the index of instance i (kInstances order) within its shape's table, digit 1 = the side to
// move and 2 = the other side (the index extract_features gives, less the shape's offset); of `other`,
// the same with the digits 1 and 2 swapped, which becomes `own` once the other side is to move. A move
// on square x that flips the squares F:
//   child.own   = parent.other + 2 * D[x] + sum of D[f]    (x becomes 2, each f goes from 1 to 2)
//   child.other = parent.own   +     D[x] - sum of D[f]    (x becomes 1, each f goes from 2 to 1)
// where D[s][i] is 3^k when square s is digit k of instance i, else 0 (kSquareDigits); a pass swaps the
// two. 64 lanes of 16 bits (3^10 - 1 = 59,048 fits), updated as 16 words of 64 bits (below).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "engine/board/position.hpp"
#include "engine/eval/pattern/pattern_layout.hpp"

namespace reversi::eval {

inline constexpr int kIndexLanes = 64;
static_assert(kInstanceCount <= kIndexLanes, "one 16-bit lane per instance");
static_assert(power_of_3(kMaxPatternSize) - 1 <= 0xffff, "an instance's index fits 16 bits");

// The lanes are packed four to a 64-bit word, lane i at bits 16 (i % 4) of word i / 4, and
// the updates add and subtract whole words: every lane stays a valid index (0 .. 59,048) after each
// step, so no carry or borrow crosses into the next lane. Sixteen operations a view where the compiler
// does not vectorise (the sanitizer builds at -O1: 64 lane by lane made their search tests several
// times slower), four AVX2 ones where it does.
inline constexpr std::size_t kIndexWords = kIndexLanes / 4;
using IndexWords = std::array<std::uint64_t, kIndexWords>;

// On a little-endian machine lane i is also the i-th 16-bit integer of the words' bytes: the evaluation
// reads the lanes as one array of 64 (sum_feature_weights).
static_assert(std::endian::native == std::endian::little, "the lanes are read as an array of 16-bit integers");
constexpr void add_to_lane(IndexWords& words, std::size_t i, std::uint32_t value) noexcept {
    words[i / 4] += static_cast<std::uint64_t>(value) << (16 * (i % 4));
}

// kSquareDigits[s]: lane i holds the value of one unit of digit on square s in instance i's index (0
// where the instance does not read s; lanes from kInstanceCount on are always 0).
inline constexpr std::array<IndexWords, 64> kSquareDigits = [] {
    std::array<IndexWords, 64> out{};
    for (int i = 0; i < kInstanceCount; ++i) {
        const PatternInstance& inst = kInstances[static_cast<std::size_t>(i)];
        for (int k = 0; k < kShapes[inst.shape].size; ++k) {
            add_to_lane(out[static_cast<std::size_t>(inst.squares[static_cast<std::size_t>(k)])],
                        static_cast<std::size_t>(i), static_cast<std::uint32_t>(power_of_3(k)));
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
    alignas(32) IndexWords own{};
    alignas(32) IndexWords other{};
    friend bool operator==(const InstanceIndices&, const InstanceIndices&) = default;
};

// The indices of pos computed from its discs (8x8 only; the start of an incremental line), as
// extract_features reads them (features.cpp).
[[nodiscard]] InstanceIndices instance_indices(const Position& pos) noexcept;

// The indices after the side to move plays `square`, flipping `flipped`. The two views are built in
// locals and copied out once: written into the returned object directly, GCC zero-filled it first (a
// memset call) and tested at run time whether it overlapped the parent.
[[nodiscard]] inline InstanceIndices after_move(const InstanceIndices& parent, int square, Bitboard flipped) noexcept {
    IndexWords own;  // the child's side to move is the parent's other side
    IndexWords other;
    const IndexWords& placed = kSquareDigits[static_cast<std::size_t>(square)];
    for (std::size_t w = 0; w < kIndexWords; ++w) {
        own[w] = parent.other[w] + 2 * placed[w];
        other[w] = parent.own[w] + placed[w];
    }
    for (int f : squares(flipped)) {
        const IndexWords& turned = kSquareDigits[static_cast<std::size_t>(f)];
        for (std::size_t w = 0; w < kIndexWords; ++w) {
            own[w] += turned[w];
            other[w] -= turned[w];
        }
    }
    return InstanceIndices{own, other};
}

// The indices after the side to move passes.
[[nodiscard]] inline InstanceIndices after_pass(const InstanceIndices& parent) noexcept {
    return InstanceIndices{parent.other, parent.own};
}

}  // namespace reversi::eval
