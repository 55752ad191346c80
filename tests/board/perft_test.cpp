#include <doctest/doctest.h>

#include "engine/board/perft.hpp"
#include "engine/board/variant.hpp"

using namespace reversi;

TEST_CASE("perft from the 8x8 start matches the published values, depths 1-9") {
    const std::uint64_t expected[] = {4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
    for (int depth = 1; depth <= 9; ++depth) {
        CAPTURE(depth);
        CHECK(perft(start_position(), depth) == expected[depth - 1]);
    }
}

TEST_CASE("perft counts a pass as a ply and a game that ended early as one leaf") {
    // White (to move) on b1 cannot play; black on a1 can play c1, after which white has no disc left.
    Position pos;
    pos.player = square_bit(1);
    pos.opponent = square_bit(0);
    pos.side = Color::White;
    REQUIRE(pos.must_pass());
    CHECK(perft(pos, 1) == 1);  // the pass
    CHECK(perft(pos, 2) == 1);  // pass, c1
    CHECK(perft(pos, 3) == 1);  // the game is over after c1: one leaf
    CHECK(perft(pos, 7) == 1);
    CHECK(perft(pos, 0) == 1);
}

TEST_CASE("perft from the 8x8 start at depths 10 and 11 (games ending at ply 9 and 10 included)") {
    CHECK(perft(start_position(), 10) == 24571284);
    CHECK(perft(start_position(), 11) == 212258800);
}

TEST_CASE("perft on the small boards is symmetric and nonzero") {
    for (Variant v : {Variant::Board6x6, Variant::Board4x4, Variant::Diamond, Variant::DiamondParallel}) {
        CAPTURE(variant_info(v).name);
        CHECK(perft(start_position(v), 1) == 4);
        CHECK(perft(start_position(v), 4) > 0);
    }
}
