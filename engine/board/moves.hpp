#pragma once
// Portable legal-move generation and flip computation on bitboards (player P to move, opponent O).
// legal_moves: shift-and-mask propagation in the 8 directions (a Kogge-Stone style fill of at most six
// steps). flips: per direction, the first non-opponent square along a precomputed ray decides whether
// the run of opponent discs in between is outflanked. Both are checked against a square-by-square
// reference in tests/board/.
//
// Fast paths are chosen at compile time: with __AVX2__ (the default -march=native build) flips() and
// legal_moves() use detail::flips_avx2 and detail::legal_moves_avx2 (engine/board/moves_avx2.hpp) at run
// time, and with AVX-512 VL and CD flips_from_rays() (the exact solver's) uses detail::flips_avx512
// (engine/board/moves_avx512.hpp); the portable versions are always available, and constant evaluation
// always uses them. tests/endgame/fast_paths_test.cpp checks every path the build has.
#include <array>
#include <string_view>
#include <type_traits>

#include "engine/board/bitboard.hpp"
#include "engine/board/moves_avx2.hpp"
#include "engine/board/moves_avx512.hpp"

namespace reversi {

namespace detail {

template <int Shift>
[[nodiscard]] constexpr Bitboard shifted(Bitboard b) noexcept {
    if constexpr (Shift > 0) {
        return b << Shift;
    } else {
        return b >> -Shift;
    }
}

// Squares reachable from P through a contiguous run of `opponent` discs, one step beyond the run.
template <int Shift>
[[nodiscard]] constexpr Bitboard outflanking_targets(Bitboard P, Bitboard opponent) noexcept {
    Bitboard run = opponent & shifted<Shift>(P);
    run |= opponent & shifted<Shift>(run);
    run |= opponent & shifted<Shift>(run);
    run |= opponent & shifted<Shift>(run);
    run |= opponent & shifted<Shift>(run);
    run |= opponent & shifted<Shift>(run);
    return shifted<Shift>(run);
}

// kRays[d][sq]: the squares strictly beyond sq in direction d, up to the board edge.
// Directions 0-3 increase the square index (E, S, SE, SW); 4-7 decrease it (W, N, NW, NE).
inline constexpr std::array<int, 8> kColumnStep = {1, 0, 1, -1, -1, 0, -1, 1};
inline constexpr std::array<int, 8> kRowStep = {0, 1, 1, 1, 0, -1, -1, -1};

constexpr std::array<std::array<Bitboard, 64>, 8> make_rays() {
    std::array<std::array<Bitboard, 64>, 8> rays{};
    for (int d = 0; d < 8; ++d) {
        for (int sq = 0; sq < 64; ++sq) {
            Bitboard ray = 0;
            int c = column_of(sq) + kColumnStep[d];
            int r = row_of(sq) + kRowStep[d];
            while (c >= 0 && c < 8 && r >= 0 && r < 8) {
                ray |= square_bit(make_square(c, r));
                c += kColumnStep[d];
                r += kRowStep[d];
            }
            rays[d][sq] = ray;
        }
    }
    return rays;
}
inline constexpr auto kRays = make_rays();
#if defined(__AVX512VL__) && defined(__AVX512CD__)
inline constexpr auto kRayLanes = make_ray_lanes(kRays);
#endif

}  // namespace detail

// Every empty square where P may play (ignoring any variant mask: callers AND it with the playable set).
[[nodiscard]] constexpr Bitboard legal_moves_portable(Bitboard P, Bitboard O) noexcept {
    using detail::outflanking_targets;
    const Bitboard inner = O & 0x7e7e7e7e7e7e7e7eULL;  // no wrap-around across the a/h columns
    const Bitboard targets = outflanking_targets<1>(P, inner) | outflanking_targets<-1>(P, inner) |
                             outflanking_targets<8>(P, O) | outflanking_targets<-8>(P, O) |
                             outflanking_targets<7>(P, inner) | outflanking_targets<-7>(P, inner) |
                             outflanking_targets<9>(P, inner) | outflanking_targets<-9>(P, inner);
    return targets & ~(P | O);
}

// legal_moves_portable() or its AVX2 twin when the build targets AVX2 (same results, checked by the tests).
[[nodiscard]] constexpr Bitboard legal_moves(Bitboard P, Bitboard O) noexcept {
#ifdef __AVX2__
    if (!std::is_constant_evaluated()) {
        return detail::legal_moves_avx2(P, O);
    }
#endif
    return legal_moves_portable(P, O);
}

// The opponent discs flipped when P plays on the empty square `sq` (0 when the move is illegal).
[[nodiscard]] constexpr Bitboard flips_portable(Bitboard P, Bitboard O, int sq) noexcept {
    Bitboard result = 0;
    for (int d = 0; d < 4; ++d) {  // increasing index: the nearest square is the lowest bit
        const Bitboard ray = detail::kRays[d][sq];
        const Bitboard stop = ray & ~O;
        const Bitboard nearest = stop & (Bitboard{0} - stop);
        const Bitboard outflanked = Bitboard{0} - static_cast<Bitboard>((nearest & P) != 0);
        result |= (nearest - 1) & ray & outflanked;
    }
    for (int d = 4; d < 8; ++d) {  // decreasing index: the nearest square is the highest bit
        const Bitboard ray = detail::kRays[d][sq];
        const Bitboard stop = ray & ~O;
        const Bitboard nearest = std::bit_floor(stop);
        const Bitboard outflanked = Bitboard{0} - static_cast<Bitboard>((nearest & P) != 0);
        result |= ray & ~((nearest << 1) - 1) & outflanked;
    }
    return result;
}

// flips_portable() or its AVX2 twin when the build targets AVX2 (same results, checked by the tests).
[[nodiscard]] constexpr Bitboard flips(Bitboard P, Bitboard O, int sq) noexcept {
#ifdef __AVX2__
    if (!std::is_constant_evaluated()) {
        return detail::flips_avx2(P, O, sq);
    }
#endif
    return flips_portable(P, O, sq);
}

// flips() read from the table of the move square's rays (4 KiB) with AVX-512 where the build has it,
// else flips(). The exact solver's searches take this one: there the table stays in the first-level
// cache and the flips come about 1.8 times faster; in the midgame search, whose evaluation reads 58
// weights from a large table per node, the table's lines are often evicted and flips() (no table) was
// faster (docs/endgame.md, "AVX-512 flips in the solver").
[[nodiscard]] inline Bitboard flips_from_rays(Bitboard P, Bitboard O, int sq) noexcept {
#if defined(__AVX512VL__) && defined(__AVX512CD__)
    return detail::flips_avx512(P, O, detail::kRayLanes[static_cast<std::size_t>(sq)]);
#else
    return flips(P, O, sq);
#endif
}

// The path flips_from_rays() takes in this build: "avx512", "avx2" or "portable" (reported by tools and
// tests; flips() takes "avx2" or "portable").
[[nodiscard]] constexpr std::string_view flips_path() noexcept {
#if defined(__AVX512VL__) && defined(__AVX512CD__)
    return "avx512";
#elif defined(__AVX2__)
    return "avx2";
#else
    return "portable";
#endif
}

}  // namespace reversi
