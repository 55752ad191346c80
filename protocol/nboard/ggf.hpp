#pragma once
// GGF (Generic Game Format, as written by NBoard and the GGS archives) for one Othello game:
//   (;GM[Othello]PC[..]PB[..]PW[..]TI[..]TY[8]BO[8 <64 squares> <side>]B[F5]W[f6/-1.2/0.3]B[pass]...;)
// Tags are NAME[value] (a backslash escapes the next character); unknown tags are skipped. BO must come
// before the first move and be an 8x8 board; moves are B[...]/W[...] with an optional /eval/time
// suffix; a pass is PA, pass, ps or @@. A move of the wrong colour when the other side had no legal move
// is read as an implied pass. Anything else (unterminated game, illegal move, wrong colour, GM other than
// Othello) is an error that says where.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"

namespace reversi::nboard {

struct GgfGame {
    Position start;
    std::vector<Move> moves;                  // passes included (implied passes too)
    Position current;                         // after the moves
    std::map<std::string, std::string> tags;  // the other tags (PB, PW, TI, RE, ...), last one wins
};

[[nodiscard]] Expected<GgfGame> parse_ggf(std::string_view text);

}  // namespace reversi::nboard
