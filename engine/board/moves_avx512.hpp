#pragma once
// AVX-512 flip computation (AVX-512 VL and CD on 256-bit registers), compiled only when the compiler
// targets both (-march=native on an AVX-512 machine). It is flips_portable() with the eight rays of the
// move square side by side: one register holds the four rays that increase the square index (E, S, SE,
// SW), another the four that decrease it (W, N, NW, NE), read from a table of 64 x 8 rays. Along each
// ray the first square that is not the opponent's decides: on a ray that increases the index it is the
// lowest set bit of ray & ~O (x & -x), on one that decreases it the highest (the leading zero count of
// the lanes, VPLZCNTQ, which has no AVX2 form). Where that square holds a disc of the player, the ray's
// squares between it and the move square flip. No loop: about half the dependent steps of the fill in
// moves_avx2.hpp. The exact solver calls it through flips_from_rays() (moves.hpp); flips() keeps the
// fill, which the midgame search measured faster (its evaluation's weight reads evict the ray table).
// Checked against flips_portable() on every empty square of random positions (tests/endgame/fast_paths_test.cpp).
#if defined(__AVX512VL__) && defined(__AVX512CD__)
#include <immintrin.h>

#include <array>
#include <cstdint>

#include "engine/board/bitboard.hpp"

namespace reversi::detail {

// kRayLanes[sq]: the rays of sq in the order of the two registers (kRays' directions 0-3, then 4-7).
struct alignas(64) RayLanes {
    std::array<Bitboard, 8> ray;
};
static_assert(sizeof(RayLanes) == 64, "one square's rays fill one cache line (two 256-bit loads)");

template <class Rays>
constexpr std::array<RayLanes, 64> make_ray_lanes(const Rays& rays) {
    std::array<RayLanes, 64> lanes{};
    for (int sq = 0; sq < 64; ++sq) {
        for (int d = 0; d < 8; ++d) lanes[sq].ray[d] = rays[d][sq];
    }
    return lanes;
}

[[nodiscard]] inline Bitboard flips_avx512(Bitboard P, Bitboard O, const RayLanes& lanes) noexcept {
    const __m256i up_ray = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes.ray.data()));
    const __m256i down_ray = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes.ray.data() + 4));
    const __m256i opp = _mm256_set1_epi64x(static_cast<long long>(O));
    const __m256i own = _mm256_set1_epi64x(static_cast<long long>(P));
    const __m256i zero = _mm256_setzero_si256();
    const __m256i one = _mm256_set1_epi64x(1);

    // Increasing index: the nearest non-opponent square is the lowest bit; the flips lie below it.
    const __m256i up_stop = _mm256_andnot_si256(opp, up_ray);
    const __m256i up_end = _mm256_and_si256(own, _mm256_and_si256(up_stop, _mm256_sub_epi64(zero, up_stop)));
    // end - min(end, 1): end - 1 (every square below the end) when the ray is closed, else 0.
    const __m256i up_flips = _mm256_and_si256(up_ray, _mm256_sub_epi64(up_end, _mm256_min_epu64(up_end, one)));

    // Decreasing index: the nearest is the highest bit (a shift by 64 leading zeros gives 0); the flips
    // lie above it: -(end << 1), 0 when the ray is not closed.
    const __m256i down_stop = _mm256_andnot_si256(opp, down_ray);
    const __m256i down_near = _mm256_srlv_epi64(_mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ULL)),
                                                _mm256_lzcnt_epi64(down_stop));
    const __m256i down_end = _mm256_and_si256(own, down_near);
    const __m256i down_flips = _mm256_and_si256(down_ray, _mm256_sub_epi64(zero, _mm256_add_epi64(down_end, down_end)));

    const __m256i both = _mm256_or_si256(up_flips, down_flips);
    const __m128i half = _mm_or_si128(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
    return static_cast<Bitboard>(_mm_cvtsi128_si64(half)) | static_cast<Bitboard>(_mm_extract_epi64(half, 1));
}

}  // namespace reversi::detail
#endif
