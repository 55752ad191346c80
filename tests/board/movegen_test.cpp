// The bitboard move generator and flips against the square-by-square reference, on every variant.
#include <doctest/doctest.h>

#include "engine/board/variant.hpp"
#include "tests/support/random_positions.hpp"
#include "tests/support/reference_board.hpp"

using namespace reversi;

TEST_CASE("legal moves and flips agree with the reference on 100,000 random positions of every variant") {
    for (const auto& info : all_variants()) {
        CAPTURE(info.name);
        const auto positions = testing::random_positions(info.id, 100000, 2024 + static_cast<int>(info.id));
        long long checked_flips = 0;
        for (const auto& pos : positions) {
            const Bitboard moves = pos.moves();
            REQUIRE(moves == testing::reference_moves(pos));
            REQUIRE((moves & ~pos.playable) == 0);
            for (int sq : squares(moves)) {
                REQUIRE(flips(pos.player, pos.opponent, sq) == testing::reference_flips(pos, sq));
                const Position next = pos.play(sq);
                REQUIRE(((next.player | next.opponent) & ~pos.playable) == 0);
                ++checked_flips;
            }
        }
        CHECK(checked_flips > 100000);
    }
}

TEST_CASE("flips on a crafted position: every direction at once") {
    // Black on the rim of a ring of white discs around d4; playing d4 flips all eight neighbours.
    Position pos;
    pos.player = 0;
    pos.opponent = 0;
    const int centre = make_square(3, 3);
    for (int dc = -1; dc <= 1; ++dc) {
        for (int dr = -1; dr <= 1; ++dr) {
            if (!dc && !dr) continue;
            pos.opponent |= square_bit(make_square(3 + dc, 3 + dr));
            pos.player |= square_bit(make_square(3 + 2 * dc, 3 + 2 * dr));
        }
    }
    CHECK(flips(pos.player, pos.opponent, centre) == pos.opponent);
    CHECK((pos.moves() & square_bit(centre)) != 0);
}

TEST_CASE("no wrap-around across the board edges") {
    // White on h1, black on a2: a1-h1-a2 is not a line, so g1 flips nothing... and h2 neither.
    Position pos;
    pos.player = square_bit(make_square(0, 1));    // a2
    pos.opponent = square_bit(make_square(7, 0));  // h1
    CHECK(pos.moves() == 0);
    CHECK(flips(pos.player, pos.opponent, make_square(6, 0)) == 0);
}
