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
#include <cstring>

#include "engine/board/position.hpp"
#include "engine/eval/pattern/pattern_layout.hpp"

namespace reversi::eval {

inline constexpr int kIndexLanes = 64;
static_assert(kInstanceCount <= kIndexLanes, "one 16-bit lane per instance");
static_assert(power_of_3(kMaxPatternSize) - 1 <= 0xffff, "an instance's index fits 16 bits");

// The lanes are packed four to a 64-bit word, lane i at bits 16 (i % 4) of word i / 4, and
// the updates add and subtract whole words: every lane stays a valid index (0 .. 59,048) after each
// step, so no carry or borrow crosses into the next lane. after_move adds them as four 256-bit vectors
// a view (64 lane by lane made the sanitizer builds' search tests several times slower).
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

// A view's 16 words as four 256-bit vectors of the compiler's vector extension (GCC and clang): one
// register each with AVX2 or AVX-512, two with SSE2. Written as plain loops over the words, GCC 12 left
// the per-flip update scalar where the loops were compiled at -O1 (16 additions and 16 subtractions in
// memory for each flipped disc; reversi-train's copy of OthelloState::play came from such a file), and
// 512-bit vectors were lowered through the stack on AVX2.
inline constexpr std::size_t kIndexVectorWords = 4;
using IndexVector = std::uint64_t __attribute__((vector_size(kIndexVectorWords * sizeof(std::uint64_t))));
static_assert(4 * sizeof(IndexVector) == sizeof(IndexWords), "four vectors cover a view exactly");

// One view in four vectors, named rather than an array: GCC kept arrays of vectors on the stack.
struct IndexView {
    IndexVector q0, q1, q2, q3;

    // Through references (a vector passed or returned by value would change the calling convention with
    // the instruction set: GCC's -Wpsabi), one memcpy a vector (one 128-byte memcpy sent the view through
    // the stack).
    void load(const IndexWords& words) noexcept {
        std::memcpy(&q0, words.data(), sizeof q0);
        std::memcpy(&q1, words.data() + kIndexVectorWords, sizeof q1);
        std::memcpy(&q2, words.data() + 2 * kIndexVectorWords, sizeof q2);
        std::memcpy(&q3, words.data() + 3 * kIndexVectorWords, sizeof q3);
    }
    void store(IndexWords& words) const noexcept {
        std::memcpy(words.data(), &q0, sizeof q0);
        std::memcpy(words.data() + kIndexVectorWords, &q1, sizeof q1);
        std::memcpy(words.data() + 2 * kIndexVectorWords, &q2, sizeof q2);
        std::memcpy(words.data() + 3 * kIndexVectorWords, &q3, sizeof q3);
    }
    IndexView& operator+=(const IndexView& o) noexcept {
        q0 += o.q0;
        q1 += o.q1;
        q2 += o.q2;
        q3 += o.q3;
        return *this;
    }
    IndexView& operator-=(const IndexView& o) noexcept {
        q0 -= o.q0;
        q1 -= o.q1;
        q2 -= o.q2;
        q3 -= o.q3;
        return *this;
    }
};

// The indices after the side to move plays `square`, flipping `flipped`. The two views are built in
// registers.
[[nodiscard]] inline InstanceIndices after_move(const InstanceIndices& parent, int square, Bitboard flipped) noexcept {
    IndexView own, other, placed;
    own.load(parent.other);  // the child's side to move is the parent's other side
    other.load(parent.own);
    placed.load(kSquareDigits[static_cast<std::size_t>(square)]);
    own += placed;  // the placed disc is digit 2 in the child's own view, 1 in its other view
    own += placed;
    other += placed;
    for (int f : squares(flipped)) {
        IndexView turned;
        turned.load(kSquareDigits[static_cast<std::size_t>(f)]);
        own += turned;
        other -= turned;
    }
    // Stored into locals and copied out once: stored into the returned object, GCC zero-filled it first.
    IndexWords own_words;
    IndexWords other_words;
    own.store(own_words);
    other.store(other_words);
    return InstanceIndices{own_words, other_words};
}

// The indices after the side to move passes.
[[nodiscard]] inline InstanceIndices after_pass(const InstanceIndices& parent) noexcept {
    return InstanceIndices{parent.other, parent.own};
}

}  // namespace reversi::eval
