#pragma once
// FFO test positions embedded for the solver tests (no shared data needed).
#include <doctest/doctest.h>

#include "engine/board/notation.hpp"

namespace reversi::testing {

// FFO #40 (20 empties, black to move: A2 +38) and FFO #53 (28 empties: a solve of many seconds).
inline constexpr const char* kFfo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
inline constexpr const char* kFfo53 = "----OO-----OOO---XXXXOOO--XXOOXO-XXXXXOO--OOOXOO--X-OX-O-----X-- X";

inline Position board(const char* text) {
    auto pos = parse_board(text);
    REQUIRE(pos);
    return *pos;
}

}  // namespace reversi::testing
