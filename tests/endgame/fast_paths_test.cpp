// The build-time fast paths of engine/board/moves.hpp against the portable code and the reference.
#include <doctest/doctest.h>

#include <random>

#include "engine/board/moves.hpp"
#include "engine/board/variant.hpp"
#include "tests/support/random_positions.hpp"
#include "tests/support/reference_board.hpp"

using namespace reversi;

TEST_CASE("flips(): the selected path equals flips_portable() on every empty square of 50,000 positions") {
    MESSAGE("flips() uses " << (flips_uses_avx2() ? "the AVX2 path" : "the portable path") << " in this build");
    const auto positions = testing::random_positions(Variant::Standard, 50000, 77);
    long long checked = 0;
    long long legal = 0;
    for (const auto& pos : positions) {
        const Bitboard empty = ~(pos.player | pos.opponent);
        const Bitboard moves = pos.moves();
        for (int sq : squares(empty)) {
            const Bitboard fast = flips(pos.player, pos.opponent, sq);
            REQUIRE(fast == flips_portable(pos.player, pos.opponent, sq));
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
        Bitboard P = 0;
        Bitboard O = 0;
        for (int sq = 0; sq < 64; ++sq) {
            const auto r = rng() % 10;
            if (r < 3) P |= square_bit(sq);
            if (r >= 3 && r < 9) O |= square_bit(sq);
        }
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
