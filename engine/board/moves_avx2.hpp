#pragma once
// AVX2 flip and legal-move computation, compiled only when the compiler targets AVX2 (-march=native on this machine).
// The eight directions are handled four at a time in two 256-bit registers (lanes: E, S, SE, SW shifts
// 1, 8, 9, 7 towards higher indices; then the same shifts towards lower indices). From the move square a
// fill runs through the opponent's discs (at most six steps); a lane whose fill ends on a disc of the
// player keeps its fill, the others are zeroed. Horizontal and diagonal lanes see the opponent's discs
// masked to columns b-g, which stops any wrap-around between the a and h columns.
// Checked against the portable flips() and the square-by-square reference in tests/endgame/.
#ifdef __AVX2__
#include <immintrin.h>

#include "engine/board/bitboard.hpp"

namespace reversi::detail {

[[nodiscard]] inline Bitboard flips_avx2(Bitboard P, Bitboard O, int sq) noexcept {
    const __m256i shift = _mm256_set_epi64x(7, 9, 8, 1);
    const __m256i lane_mask = _mm256_set_epi64x(0x7e7e7e7e7e7e7e7eLL, 0x7e7e7e7e7e7e7e7eLL, -1LL, 0x7e7e7e7e7e7e7e7eLL);
    const __m256i opp = _mm256_and_si256(_mm256_set1_epi64x(static_cast<long long>(O)), lane_mask);
    const __m256i own = _mm256_set1_epi64x(static_cast<long long>(P));
    const __m256i from = _mm256_set1_epi64x(static_cast<long long>(square_bit(sq)));
    const __m256i zero = _mm256_setzero_si256();

    __m256i up = _mm256_and_si256(opp, _mm256_sllv_epi64(from, shift));
    __m256i down = _mm256_and_si256(opp, _mm256_srlv_epi64(from, shift));
    for (int step = 0; step < 5; ++step) {
        up = _mm256_or_si256(up, _mm256_and_si256(opp, _mm256_sllv_epi64(up, shift)));
        down = _mm256_or_si256(down, _mm256_and_si256(opp, _mm256_srlv_epi64(down, shift)));
    }
    const __m256i up_end = _mm256_and_si256(own, _mm256_sllv_epi64(up, shift));
    const __m256i down_end = _mm256_and_si256(own, _mm256_srlv_epi64(down, shift));
    // Keep a lane's fill only when it is closed by one of the player's discs.
    up = _mm256_andnot_si256(_mm256_cmpeq_epi64(up_end, zero), up);
    down = _mm256_andnot_si256(_mm256_cmpeq_epi64(down_end, zero), down);
    const __m256i both = _mm256_or_si256(up, down);
    const __m128i half = _mm_or_si128(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
    return static_cast<Bitboard>(_mm_cvtsi128_si64(half)) | static_cast<Bitboard>(_mm_extract_epi64(half, 1));
}

// Every empty square where P may play: the eight directional fills of legal_moves_portable() four lanes
// at a time. Each fill runs through the opponent's discs with doubling steps: after two single steps,
// `pairs` (opponent discs whose neighbour one step back is also an opponent disc) lets a step of two
// squares extend a run by two, so runs of up to six discs take four steps instead of six.
[[nodiscard]] inline Bitboard legal_moves_avx2(Bitboard P, Bitboard O) noexcept {
    const __m256i shift = _mm256_set_epi64x(7, 9, 8, 1);
    const __m256i shift2 = _mm256_add_epi64(shift, shift);
    const __m256i lane_mask = _mm256_set_epi64x(0x7e7e7e7e7e7e7e7eLL, 0x7e7e7e7e7e7e7e7eLL, -1LL, 0x7e7e7e7e7e7e7e7eLL);
    const __m256i opp = _mm256_and_si256(_mm256_set1_epi64x(static_cast<long long>(O)), lane_mask);
    const __m256i own = _mm256_set1_epi64x(static_cast<long long>(P));

    __m256i up = _mm256_and_si256(opp, _mm256_sllv_epi64(own, shift));
    __m256i down = _mm256_and_si256(opp, _mm256_srlv_epi64(own, shift));
    up = _mm256_or_si256(up, _mm256_and_si256(opp, _mm256_sllv_epi64(up, shift)));
    down = _mm256_or_si256(down, _mm256_and_si256(opp, _mm256_srlv_epi64(down, shift)));
    const __m256i pairs_up = _mm256_and_si256(opp, _mm256_sllv_epi64(opp, shift));
    const __m256i pairs_down = _mm256_srlv_epi64(pairs_up, shift);
    for (int step = 0; step < 2; ++step) {
        up = _mm256_or_si256(up, _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, shift2)));
        down = _mm256_or_si256(down, _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, shift2)));
    }
    const __m256i targets = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
    const __m128i half = _mm_or_si128(_mm256_castsi256_si128(targets), _mm256_extracti128_si256(targets, 1));
    const Bitboard all =
        static_cast<Bitboard>(_mm_cvtsi128_si64(half)) | static_cast<Bitboard>(_mm_extract_epi64(half, 1));
    return all & ~(P | O);
}

}  // namespace reversi::detail
#endif
