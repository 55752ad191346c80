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
// step, so no carry or borrow crosses into the next lane. after_move adds them as two vectors a view
// (64 lane by lane made the sanitizer builds' search tests several times slower).
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

// A view's 16 words as two vectors of the compiler's vector extension (GCC and clang): one 512-bit
// register each with AVX-512, two 256-bit ones with AVX2, four with SSE2. Written as plain loops over
// the words, GCC 12 left the per-flip update scalar (16 additions and 16 subtractions in memory for each
// flipped disc: a third of the midgame search's time in `OthelloState::play`), and as arrays of vectors
// it kept them on the stack; four named vectors stay in registers.
using IndexVector = std::uint64_t __attribute__((vector_size(kIndexWords / 2 * sizeof(std::uint64_t))));
static_assert(2 * sizeof(IndexVector) == sizeof(IndexWords), "two vectors cover a view exactly");

// Loads and stores through references: a vector passed or returned by value would change the calling
// convention with the instruction set (GCC's -Wpsabi), and these are inlined anyway.
inline void load_index_vector(IndexVector& vector, const IndexWords& words, std::size_t half) noexcept {
    std::memcpy(&vector, words.data() + half * kIndexWords / 2, sizeof vector);
}
inline void store_index_vector(IndexWords& words, std::size_t half, const IndexVector& vector) noexcept {
    std::memcpy(words.data() + half * kIndexWords / 2, &vector, sizeof vector);
}

// The indices after the side to move plays `square`, flipping `flipped`. The two views are built in
// registers and stored once.
[[nodiscard]] inline InstanceIndices after_move(const InstanceIndices& parent, int square, Bitboard flipped) noexcept {
    IndexVector own0, own1, other0, other1, placed0, placed1;
    load_index_vector(own0, parent.other, 0);  // the child's side to move is the parent's other side
    load_index_vector(own1, parent.other, 1);
    load_index_vector(other0, parent.own, 0);
    load_index_vector(other1, parent.own, 1);
    load_index_vector(placed0, kSquareDigits[static_cast<std::size_t>(square)], 0);
    load_index_vector(placed1, kSquareDigits[static_cast<std::size_t>(square)], 1);
    own0 += 2 * placed0;
    own1 += 2 * placed1;
    other0 += placed0;
    other1 += placed1;
    for (int f : squares(flipped)) {
        IndexVector turned0, turned1;
        load_index_vector(turned0, kSquareDigits[static_cast<std::size_t>(f)], 0);
        load_index_vector(turned1, kSquareDigits[static_cast<std::size_t>(f)], 1);
        own0 += turned0;
        own1 += turned1;
        other0 -= turned0;
        other1 -= turned1;
    }
    InstanceIndices out;
    store_index_vector(out.own, 0, own0);
    store_index_vector(out.own, 1, own1);
    store_index_vector(out.other, 0, other0);
    store_index_vector(out.other, 1, other1);
    return out;
}

// The indices after the side to move passes.
[[nodiscard]] inline InstanceIndices after_pass(const InstanceIndices& parent) noexcept {
    return InstanceIndices{parent.other, parent.own};
}

}  // namespace reversi::eval
