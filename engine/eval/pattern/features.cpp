#include "engine/eval/pattern/features.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>
#if defined(__BMI2__) || (defined(__AVX512BW__) && defined(__AVX512VBMI__))
#include <immintrin.h>
#endif

#include "engine/eval/heuristic.hpp"

namespace reversi::eval {

namespace {

// kBinaryToTernary[b] = sum of 3^k over the set bits k of b (b < 2^10).
constexpr std::array<std::uint16_t, 1 << kMaxPatternSize> kBinaryToTernary = [] {
    std::array<std::uint16_t, 1 << kMaxPatternSize> out{};
    for (int b = 0; b < (1 << kMaxPatternSize); ++b) {
        int v = 0;
        for (int k = 0; k < kMaxPatternSize; ++k) {
            if (b & (1 << k)) v += power_of_3(k);
        }
        out[b] = static_cast<std::uint16_t>(v);
    }
    return out;
}();

constexpr Bitboard kDiagonalOne = 0x0101010101010101ULL;

// The bits of b on the shape's canonical squares, square k of the shape as bit k.
template <int Shape>
constexpr unsigned gather(Bitboard b) noexcept {
    switch (Shape) {
        case 0:
            return static_cast<unsigned>((b >> 8) & 0xff);
        case 1:
            return static_cast<unsigned>((b >> 16) & 0xff);
        case 2:
            return static_cast<unsigned>((b >> 24) & 0xff);
        // Diagonals going down-right have one square per column: the multiply stacks them in the top byte.
        case 3:
            return static_cast<unsigned>(((b & 0x8040201008040201ULL) * kDiagonalOne) >> 56);
        case 4:
            return static_cast<unsigned>(((b & 0x0080402010080402ULL) * kDiagonalOne) >> 57);
        case 5:
            return static_cast<unsigned>(((b & 0x0000804020100804ULL) * kDiagonalOne) >> 58);
        case 6:
            return static_cast<unsigned>(((b & 0x0000008040201008ULL) * kDiagonalOne) >> 59);
        case 7:
            return static_cast<unsigned>(((b & 0x0000000080402010ULL) * kDiagonalOne) >> 60);
        case 8:
            return static_cast<unsigned>((b & 0xff) | (((b >> 9) & 1) << 8) | (((b >> 14) & 1) << 9));
        case 9:
            return static_cast<unsigned>((b & 0x7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1c0));
        case 10:
            return static_cast<unsigned>((b & 0x1f) | ((b >> 3) & 0x3e0));
        default: {  // the other 10-square shapes, square by square (the portable build only)
            unsigned bits = 0;
            for (int k = 0; k < kShapes[Shape].size; ++k)
                bits |= static_cast<unsigned>((b >> kShapes[Shape].squares[k]) & 1) << k;
            return bits;
        }
    }
}

constexpr std::uint32_t scalar_mobility(Bitboard moves) noexcept {
    return static_cast<std::uint32_t>(std::min(popcount(moves), kMobilityCap));
}

constexpr std::uint32_t scalar_potential(Bitboard squares) noexcept {
    return static_cast<std::uint32_t>(std::min(popcount(squares), kPotentialCap));
}

// The 8 squares of edge e of b (kEdgeSquares[e]: a1..h1, a8..h8, a1..a8, h1..h8) as bits 0-7 in that order.
// A column's squares, one per row, are stacked in the top byte by a carry-free multiply.
constexpr unsigned edge_bits(Bitboard b, int e) noexcept {
    constexpr Bitboard kColumnA = 0x0101010101010101ULL;
    constexpr Bitboard kStack = 0x0102040810204080ULL;
    switch (e) {
        case 0:
            return static_cast<unsigned>(b & 0xff);
        case 1:
            return static_cast<unsigned>(b >> 56);
        case 2:
            return static_cast<unsigned>(((b & kColumnA) * kStack) >> 56);
        default:
            return static_cast<unsigned>((((b >> 7) & kColumnA) * kStack) >> 56);
    }
}

// Calls visit(feature, index) for each scalar feature of pos (kInstanceCount .. kFeatureCount - 1), whose
// side to move has the legal moves `mine`: the sums add the weights as the indices are made, without
// storing them first.
template <class Visit>
void for_each_scalar(const Position& pos, Bitboard mine, Visit&& visit) noexcept {
    const Bitboard empty = ~(pos.player | pos.opponent);
    const Bitboard theirs = legal_moves(pos.opponent, pos.player);
    visit(kInstanceCount, kMobilityOffset + scalar_mobility(mine));
    visit(kInstanceCount + 1, kOpponentMobilityOffset + scalar_mobility(theirs));
    for (int e = 0; e < kEdgeCount; ++e) {
        visit(kFirstEdgeFeature + e, kEdgeMobilityOffset + (edge_bits(mine, e) | edge_bits(theirs, e) << 8));
    }
    visit(kInstanceCount + 2, kPotentialOffset + scalar_potential(empty & neighbours(pos.opponent)));
    visit(kInstanceCount + 3, kOpponentPotentialOffset + scalar_potential(empty & neighbours(pos.player)));
    visit(kInstanceCount + 4, kParityOffset + static_cast<std::uint32_t>(empties_of(pos) & 1));
}

template <class Visit>
void for_each_scalar(const Position& pos, Visit&& visit) noexcept {
    for_each_scalar(pos, legal_moves(pos.player, pos.opponent), visit);
}

void fill_scalars(const Position& pos, FeatureIndices& out) noexcept {
    for_each_scalar(pos, [&](int feature, std::uint32_t index) { out[static_cast<std::size_t>(feature)] = index; });
}

// transform(g, b) for all g from one transpose and two column mirrors (see symmetry.hpp for the order).
std::array<Bitboard, kSymmetryCount> images(Bitboard b) noexcept {
    const Bitboard t = transpose(b);
    const Bitboard m = mirror_columns(b);
    const Bitboard tm = mirror_columns(t);
    return {b, m, flip_rows(b), flip_rows(m), t, tm, flip_rows(t), flip_rows(tm)};
}

#ifdef __BMI2__
inline constexpr bool kHavePext = true;
// With BMI2 each shape is gathered from its image by one pext on the shape's canonical mask: the
// canonical squares are ascending, so the gathered bits are already in digit order (square k is bit k).
constexpr std::array<Bitboard, kShapeCount> kCanonicalMasks = [] {
    std::array<Bitboard, kShapeCount> out{};
    for (int t = 0; t < kShapeCount; ++t) {
        for (int k = 0; k < kShapes[t].size; ++k) out[t] |= square_bit(kShapes[t].squares[k]);
    }
    return out;
}();
template <int Shape>
unsigned gather_pext(Bitboard b) noexcept {
    return static_cast<unsigned>(_pext_u64(b, kCanonicalMasks[Shape]));
}
#else
inline constexpr bool kHavePext = false;
template <int Shape>
unsigned gather_pext(Bitboard b) noexcept {
    return gather<Shape>(b);  // never called: kHavePext is false
}
#endif

#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
static_assert(kDigitPlaneExtraction, "features.hpp tests the same instruction sets");
// With AVX-512 VBMI all instances are read at once, one byte lane per instance: the board becomes 64
// digit bytes (square s in byte s), and digit plane k (one vpermb) holds in lane i the digit k of
// instance i, zero where the instance has fewer squares. Horner's rule in bytes makes digits 0-4 and
// 5-9 two base-3 numbers below 243; the index is low + 243 * high (+ the shape's offset) in 32 bits. The
// weight loads stay scalar: a plain loop over the stored indices (unrolled per instance, GCC 12 kept
// the indices in vector registers and ran 25 % slower than the pext path).
static_assert(kInstanceCount <= 64, "one byte lane per instance");
static_assert(kMaxPatternSize == 10, "two halves of five digits, each below 3^5 = 243 in a byte");
struct DigitPlanes {
    std::array<std::array<std::uint8_t, 64>, kMaxPatternSize> squares{};  // plane k, lane i: a square
    std::array<std::uint64_t, kMaxPatternSize> lanes{};                   // plane k: instances with digit k
};
constexpr DigitPlanes kDigitPlanes = [] {
    DigitPlanes out;
    for (int i = 0; i < kInstanceCount; ++i) {
        for (int k = 0; k < kShapes[kInstances[i].shape].size; ++k) {
            out.squares[k][i] = static_cast<std::uint8_t>(kInstances[i].squares[k]);
            out.lanes[k] |= std::uint64_t{1} << i;
        }
    }
    return out;
}();

template <int K>
__m512i digit_plane(__m512i digits) noexcept {
    const __m512i squares = _mm512_loadu_si512(kDigitPlanes.squares[K].data());
    return _mm512_maskz_permutexvar_epi8(kDigitPlanes.lanes[K], squares, digits);
}

// Digits Top..Bottom of every instance as one base-3 number per byte lane (Top - Bottom <= 4).
template <int Top, int Bottom>
__m512i base3_bytes(__m512i digits) noexcept {
    __m512i acc = digit_plane<Top>(digits);
    if constexpr (Top > Bottom) {
        [&]<int... J>(std::integer_sequence<int, J...>) {
            ((acc = _mm512_add_epi8(_mm512_add_epi8(acc, acc), _mm512_add_epi8(acc, digit_plane<Top - 1 - J>(digits)))),
             ...);
        }
        (std::make_integer_sequence<int, Top - Bottom>{});
    }
    return acc;
}

// Lane i: the offset of instance i's shape table (0 past the last instance).
constexpr std::array<std::uint32_t, 64> kLaneOffsets = [] {
    std::array<std::uint32_t, 64> out{};
    for (int i = 0; i < kInstanceCount; ++i) out[i] = static_cast<std::uint32_t>(kShapeOffsets[kInstances[i].shape]);
    return out;
}();

// The weights table[index] of lanes 16Q..16Q+15, sign-extended to 32 bits, 0 in the lanes past the last
// instance. Each int16 weight is read by a 32-bit gather at its address, whose high half (the next
// entry) is dropped: the shapes' tables come before the scalar features in a phase table, so that
// entry is never past the table's end.
static_assert(kShapeOffsets[kShapeCount] < kWeightsPerPhase, "an entry follows every instance's weight");
template <int Q>
__m512i gather_weights(__m512i index, const std::int16_t* table) noexcept {
    constexpr int kLanes = std::clamp(kInstanceCount - 16 * Q, 0, 16);
    constexpr auto kMask = static_cast<__mmask16>((1u << kLanes) - 1);
    const __m512i words = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), kMask, index, table, 2);
    return _mm512_maskz_srai_epi32(0xffff, _mm512_maskz_slli_epi32(0xffff, words, 16), 16);
}

// The sum of the 32-bit lanes. Here and above the zero-masked forms of the intrinsics: GCC 12's plain
// ones start from an undefined register that -Wuninitialized reports.
int sum_lanes(__m512i v) noexcept {
    const __m256i half =
        _mm256_add_epi32(_mm512_maskz_extracti64x4_epi64(0xff, v, 0), _mm512_maskz_extracti64x4_epi64(0xff, v, 1));
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
    return _mm_cvtsi128_si32(x);
}

// Every instance's digits 0-4 (low) and 5-9 (high) as base-3 numbers, one byte lane per instance.
struct DigitHalves {
    __m512i low;
    __m512i high;
};
DigitHalves digit_halves(const Position& pos) noexcept {
    __m512i digits = _mm512_maskz_mov_epi8(pos.player, _mm512_set1_epi8(1));
    digits = _mm512_mask_mov_epi8(digits, pos.opponent, _mm512_set1_epi8(2));
    return {base3_bytes<4, 0>(digits), base3_bytes<9, 5>(digits)};
}

// Lanes 16Q..16Q+15: low + 243 * high + the shape's offset, the instance's weight index, in 32 bits.
template <int Q>
__m512i quarter_index(const DigitHalves& d) noexcept {
    const __m512i lo = _mm512_maskz_cvtepu8_epi32(0xffff, _mm512_maskz_extracti32x4_epi32(0xf, d.low, Q));
    const __m512i hi = _mm512_maskz_cvtepu8_epi32(0xffff, _mm512_maskz_extracti32x4_epi32(0xf, d.high, Q));
    const __m512i offsets = _mm512_loadu_si512(kLaneOffsets.data() + 16 * Q);
    return _mm512_add_epi32(_mm512_add_epi32(lo, _mm512_mullo_epi32(hi, _mm512_set1_epi32(243))), offsets);
}

// The weight index of every instance into out[0..63] (lanes past the last instance: 0).
void digit_plane_indices(const Position& pos, std::uint32_t* out) noexcept {
    const DigitHalves d = digit_halves(pos);
    _mm512_storeu_si512(out, quarter_index<0>(d));
    _mm512_storeu_si512(out + 16, quarter_index<1>(d));
    _mm512_storeu_si512(out + 32, quarter_index<2>(d));
    _mm512_storeu_si512(out + 48, quarter_index<3>(d));
}

// The sum of the instances' weights in `table`: the digit planes' indices, read by four 16-lane gathers
// instead of 58 scalar loads (FFO #45-#52 at one thread: about 7 % less time for the same nodes,
// docs/endgame.md "The weights gathered").
int gather_digit_plane_weights(const Position& pos, const std::int16_t* table) noexcept {
    const DigitHalves d = digit_halves(pos);
    const __m512i first =
        _mm512_add_epi32(gather_weights<0>(quarter_index<0>(d), table), gather_weights<1>(quarter_index<1>(d), table));
    const __m512i second =
        _mm512_add_epi32(gather_weights<2>(quarter_index<2>(d), table), gather_weights<3>(quarter_index<3>(d), table));
    return sum_lanes(_mm512_add_epi32(first, second));
}
#else
static_assert(!kDigitPlaneExtraction, "features.hpp tests the same instruction sets");
void digit_plane_indices(const Position&, std::uint32_t*) noexcept {}                        // never called
int gather_digit_plane_weights(const Position&, const std::int16_t*) noexcept { return 0; }  // never called
#endif

using Images = std::array<Bitboard, kSymmetryCount>;

// The weight index of instance I, read from the board images with pext (Pext) or shifts and multiplies.
template <bool Pext, std::size_t I>
std::uint32_t instance_index(const Images& player, const Images& opponent) noexcept {
    constexpr int shape = kInstances[I].shape;
    constexpr int image = kInstances[I].symmetry;
    const unsigned p = Pext ? gather_pext<shape>(player[image]) : gather<shape>(player[image]);
    const unsigned o = Pext ? gather_pext<shape>(opponent[image]) : gather<shape>(opponent[image]);
    return static_cast<std::uint32_t>(kShapeOffsets[shape] + kBinaryToTernary[p] + 2 * kBinaryToTernary[o]);
}

// Every instance unrolled at compile time: no data-dependent branch in the fast path.
template <bool Pext, std::size_t... I>
void gather_all(const Position& pos, FeatureIndices& out, std::index_sequence<I...>) noexcept {
    const Images player = images(pos.player);
    const Images opponent = images(pos.opponent);
    ((out[I] = instance_index<Pext, I>(player, opponent)), ...);
    fill_scalars(pos, out);
}

void gather_digit_planes(const Position& pos, FeatureIndices& out) noexcept {
    alignas(64) std::array<std::uint32_t, 64> index;
    digit_plane_indices(pos, index.data());
    std::copy_n(index.begin(), kInstanceCount, out.begin());
    fill_scalars(pos, out);
}

// own[I] and other[I] of instance I: the ternary values of the two sides' discs, combined both ways.
template <bool Pext, std::size_t... I>
void gather_both_views(const Position& pos, InstanceIndices& out, std::index_sequence<I...>) noexcept {
    const Images player = images(pos.player);
    const Images opponent = images(pos.opponent);
    const auto one = [&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
        constexpr int shape = kInstances[J].shape;
        constexpr int image = kInstances[J].symmetry;
        const unsigned p = Pext ? gather_pext<shape>(player[image]) : gather<shape>(player[image]);
        const unsigned o = Pext ? gather_pext<shape>(opponent[image]) : gather<shape>(opponent[image]);
        add_to_lane(out.own, J, kBinaryToTernary[p] + 2u * kBinaryToTernary[o]);
        add_to_lane(out.other, J, kBinaryToTernary[o] + 2u * kBinaryToTernary[p]);
    };
    (one(std::integral_constant<std::size_t, I>{}), ...);
}

// Calls add(index) for every weight index the position activates (the indices of extract_features).
template <class Add, std::size_t... I>
void for_each_index(const Position& pos, Add&& add, std::index_sequence<I...>) noexcept {
    if constexpr (kDigitPlaneExtraction) {
        alignas(64) std::array<std::uint32_t, 64> index;
        digit_plane_indices(pos, index.data());
        for (int i = 0; i < kInstanceCount; ++i) add(index[i]);
    } else {
        const Images player = images(pos.player);
        const Images opponent = images(pos.opponent);
        (add(instance_index<kHavePext, I>(player, opponent)), ...);
    }
    for_each_scalar(pos, [&](int, std::uint32_t index) { add(index); });
}

}  // namespace

PhaseSums sum_feature_weights(const Position& pos, const std::int16_t* first, const std::int16_t* second) noexcept {
    PhaseSums sums;
    const auto add = [&](std::uint32_t index) {
        sums.first += first[index];
        sums.second += second[index];
    };
    for_each_index(pos, add, std::make_index_sequence<kInstanceCount>{});
    return sums;
}

int sum_feature_weights(const Position& pos, const std::int16_t* table) noexcept {
    if constexpr (kDigitPlaneExtraction) {
        int sum = gather_digit_plane_weights(pos, table);
        for_each_scalar(pos, [&](int, std::uint32_t index) { sum += table[index]; });
        return sum;
    }
    int sum = 0;
    const auto add = [&](std::uint32_t index) { sum += table[index]; };
    for_each_index(pos, add, std::make_index_sequence<kInstanceCount>{});
    return sum;
}

// The instances' weights, written out instance by instance (each offset an immediate, no loop counter).
// Lane i is read where it lies, the i-th 16-bit integer of the words' bytes (one 2-byte load each; a
// bit_cast of the 128 bytes to an array of lanes first cost a copy of them per evaluation).
template <std::size_t... I>
int sum_instance_weights(const IndexWords& own, const std::int16_t* table, std::index_sequence<I...>) noexcept {
    const auto* bytes = reinterpret_cast<const unsigned char*>(own.data());
    const auto lane = [bytes](std::size_t i) {
        std::uint16_t value;
        std::memcpy(&value, bytes + 2 * i, sizeof value);
        return value;
    };
    return (0 + ... + int{table[kInstanceOffsets[I] + lane(I)]});
}

int sum_feature_weights(const Position& pos, const InstanceIndices& indices, const std::int16_t* table,
                        Bitboard moves) noexcept {
    int sum = sum_instance_weights(indices.own, table, std::make_index_sequence<kInstanceCount>{});
    for_each_scalar(pos, moves, [&](int, std::uint32_t index) { sum += table[index]; });
    return sum;
}

InstanceIndices instance_indices(const Position& pos) noexcept {
    InstanceIndices out;
    gather_both_views<kHavePext>(pos, out, std::make_index_sequence<kInstanceCount>{});
    return out;
}

void extract_features_portable(const Position& pos, FeatureIndices& out) noexcept {
    gather_all<false>(pos, out, std::make_index_sequence<kInstanceCount>{});
}

#ifdef __BMI2__
void extract_features_pext(const Position& pos, FeatureIndices& out) noexcept {
    gather_all<true>(pos, out, std::make_index_sequence<kInstanceCount>{});
}
#endif

#if defined(__AVX512BW__) && defined(__AVX512VBMI__)
void extract_features_digit_planes(const Position& pos, FeatureIndices& out) noexcept { gather_digit_planes(pos, out); }
#endif

void extract_features(const Position& pos, FeatureIndices& out) noexcept {
    if constexpr (kDigitPlaneExtraction) {
        gather_digit_planes(pos, out);
    } else {
        gather_all<kHavePext>(pos, out, std::make_index_sequence<kInstanceCount>{});
    }
}

void extract_features_reference(const Position& pos, FeatureIndices& out) noexcept {
    for (int i = 0; i < kInstanceCount; ++i) {
        const PatternInstance& inst = kInstances[i];
        int index = 0;
        int digit_weight = 1;
        for (int k = 0; k < kShapes[inst.shape].size; ++k) {
            const Bitboard bit = square_bit(inst.squares[k]);
            const int digit = (pos.player & bit) ? 1 : ((pos.opponent & bit) ? 2 : 0);
            index += digit * digit_weight;
            digit_weight *= 3;
        }
        out[i] = static_cast<std::uint32_t>(kShapeOffsets[inst.shape] + index);
    }
    // Mobility by trying every empty square (flips() is itself checked against a reference in tests/board).
    Bitboard my_moves = 0;
    Bitboard their_moves = 0;
    for (int sq = 0; sq < 64; ++sq) {
        if ((pos.player | pos.opponent) & square_bit(sq)) continue;
        if (flips(pos.player, pos.opponent, sq) != 0) my_moves |= square_bit(sq);
        if (flips(pos.opponent, pos.player, sq) != 0) their_moves |= square_bit(sq);
    }
    const int mine = popcount(my_moves);
    const int theirs = popcount(their_moves);
    // Potential mobility by looking at the 8 neighbours of every empty square.
    int near_theirs = 0;
    int near_mine = 0;
    for (int sq = 0; sq < 64; ++sq) {
        if ((pos.player | pos.opponent) & square_bit(sq)) continue;
        bool touches_theirs = false;
        bool touches_mine = false;
        for (int dc = -1; dc <= 1; ++dc) {
            for (int dr = -1; dr <= 1; ++dr) {
                const int c = column_of(sq) + dc;
                const int r = row_of(sq) + dr;
                if ((dc == 0 && dr == 0) || c < 0 || c > 7 || r < 0 || r > 7) continue;
                touches_theirs = touches_theirs || (pos.opponent & square_bit(make_square(c, r))) != 0;
                touches_mine = touches_mine || (pos.player & square_bit(make_square(c, r))) != 0;
            }
        }
        near_theirs += touches_theirs ? 1 : 0;
        near_mine += touches_mine ? 1 : 0;
    }
    out[kInstanceCount] = static_cast<std::uint32_t>(kMobilityOffset + std::min(mine, kMobilityCap));
    out[kInstanceCount + 1] = static_cast<std::uint32_t>(kOpponentMobilityOffset + std::min(theirs, kMobilityCap));
    out[kInstanceCount + 2] = static_cast<std::uint32_t>(kPotentialOffset + std::min(near_theirs, kPotentialCap));
    out[kInstanceCount + 3] = static_cast<std::uint32_t>(kOpponentPotentialOffset + std::min(near_mine, kPotentialCap));
    out[kInstanceCount + 4] =
        static_cast<std::uint32_t>(kParityOffset + ((64 - popcount(pos.player | pos.opponent)) & 1));
    // Edge mobility square by square, in kEdgeSquares' order.
    for (int e = 0; e < kEdgeCount; ++e) {
        std::uint32_t bits = 0;
        for (int k = 0; k < 8; ++k) {
            const Bitboard sq = square_bit(kEdgeSquares[static_cast<std::size_t>(e)][static_cast<std::size_t>(k)]);
            if (my_moves & sq) bits |= 1u << k;
            if (their_moves & sq) bits |= 1u << (k + 8);
        }
        out[kFirstEdgeFeature + e] = static_cast<std::uint32_t>(kEdgeMobilityOffset) + bits;
    }
}

}  // namespace reversi::eval
