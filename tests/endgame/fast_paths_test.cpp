// The build-time fast paths of engine/board/moves.hpp against the portable code and the reference.
#include <doctest/doctest.h>

#include <random>
#include <utility>
#include <vector>

#include "engine/board/moves.hpp"
#include "engine/board/variant.hpp"
#include "tests/support/random_positions.hpp"
#include "tests/support/reference_board.hpp"

using namespace reversi;

namespace {
// A random board where each square holds the player's disc with probability player_tenths / 10, the
// opponent's with (9 - player_tenths) / 10 and is empty with 1 / 10: long runs of opponent discs.
std::pair<Bitboard, Bitboard> dense_board(std::mt19937_64& rng, unsigned player_tenths) {
    Bitboard P = 0;
    Bitboard O = 0;
    for (int sq = 0; sq < 64; ++sq) {
        const auto r = rng() % 10;
        if (r < player_tenths) P |= square_bit(sq);
        if (r >= player_tenths && r < 9) O |= square_bit(sq);
    }
    return {P, O};
}
}  // namespace

TEST_CASE("flips() and flips_from_rays() equal flips_portable() on every empty square of 50,000 positions") {
    MESSAGE("flips_from_rays() uses the " << flips_path() << " path in this build");
    const auto positions = testing::random_positions(Variant::Standard, 50000, 77);
    long long checked = 0;
    long long legal = 0;
    for (const auto& pos : positions) {
        const Bitboard empty = ~(pos.player | pos.opponent);
        const Bitboard moves = pos.moves();
        for (int sq : squares(empty)) {
            const Bitboard fast = flips(pos.player, pos.opponent, sq);
            REQUIRE(fast == flips_portable(pos.player, pos.opponent, sq));
            REQUIRE(flips_from_rays(pos.player, pos.opponent, sq) == fast);
            // The opponent's view too (a different disc pattern on the same square).
            REQUIRE(flips(pos.opponent, pos.player, sq) == flips_portable(pos.opponent, pos.player, sq));
            ++checked;
            if (moves & square_bit(sq)) {
                REQUIRE(fast == testing::reference_flips(pos, sq));
                ++legal;
            } else {
                REQUIRE(fast == 0);
            }
        }
    }
    CHECK(checked > 1000000);
    CHECK(legal > 200000);
}

// Every SIMD flip routine the build has, not only the one flips() selects: an AVX-512 build keeps the AVX2
// routine's check. Random positions, then dense boards of long opponent runs (the rays' ends and the
// a/h-column wrap-around).
TEST_CASE("flips_avx2() and flips_avx512(), where the build has them, equal flips_portable() on every empty square") {
    std::vector<std::pair<Bitboard, Bitboard>> boards;
    for (const auto& pos : testing::random_positions(Variant::Standard, 20000, 80)) {
        boards.emplace_back(pos.player, pos.opponent);
        boards.emplace_back(pos.opponent, pos.player);
    }
    std::mt19937_64 rng(81);
    for (int i = 0; i < 20000; ++i) boards.push_back(dense_board(rng, 2));
    long long checked = 0;
    long long flipping = 0;
    for (const auto& [P, O] : boards) {
        for (int sq : squares(~(P | O))) {
            const Bitboard expected = flips_portable(P, O, sq);
#ifdef __AVX2__
            REQUIRE(detail::flips_avx2(P, O, sq) == expected);
#endif
#if defined(__AVX512VL__) && defined(__AVX512CD__)
            REQUIRE(detail::flips_avx512(P, O, detail::kRayLanes[static_cast<std::size_t>(sq)]) == expected);
#endif
            ++checked;
            flipping += expected != 0;
        }
    }
    MESSAGE("flips checked on " << checked << " squares, " << flipping << " of them flipping, in this " << flips_path()
                                << " build");
    CHECK(checked > 500000);
    CHECK(flipping > 100000);
}

TEST_CASE("legal_moves(): the selected path equals legal_moves_portable() and the square-by-square reference") {
    const auto check = [](Bitboard P, Bitboard O) {
        const Bitboard fast = legal_moves(P, O);
        REQUIRE(fast == legal_moves_portable(P, O));
        Bitboard reference = 0;
        for (int sq : squares(~(P | O))) {
            if (flips_portable(P, O, sq) != 0) reference |= square_bit(sq);
        }
        REQUIRE(fast == reference);
    };
    for (const auto& pos : testing::random_positions(Variant::Standard, 50000, 78)) {
        check(pos.player, pos.opponent);
        check(pos.opponent, pos.player);
    }
    // Random dense boards, mostly opponent discs: long runs in every direction and across the edges.
    std::mt19937_64 rng(79);
    for (int i = 0; i < 200000; ++i) {
        const auto [P, O] = dense_board(rng, 3);
        check(P, O);
    }
}

TEST_CASE("flips(): crafted edge cases (full rays, wrap-around, corners)") {
    // P on h8 and a row/column/diagonal of O towards a1: playing a1 flips the whole diagonal.
    const Bitboard diagonal = 0x0040201008040200ULL;  // b2..g7
    CHECK(flips(square_bit(63), diagonal, 0) == diagonal);
    CHECK(flips_portable(square_bit(63), diagonal, 0) == diagonal);
    // Row 1 full of O from b1 to g1 with P on h1: a1 flips six discs; but P on a2 does not wrap from h1.
    const Bitboard row = 0x7eULL;
    CHECK(flips(square_bit(7), row, 0) == row);
    CHECK(flips(square_bit(8), row | square_bit(7), 0) == 0);
    // An O run reaching the edge without a closing P disc flips nothing.
    CHECK(flips(0, row | square_bit(7), 0) == 0);
}
