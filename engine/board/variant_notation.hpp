#pragma once
// Text forms on a variant's own board: its playable squares alone, in their own coordinates.
//   local coordinates  column and row counted from the top-left corner of the smallest rectangle that
//                      holds the playable squares: on 6x6 (b2-g7) b2 is a1 and g7 is f6; on 4x4 (c3-f6)
//                      c3 is a1; the diamond's rectangle is b2-g7, so its squares are c1 d1 / b2-e2 /
//                      a3-f3 / a4-f4 / b5-e5 / c6 d6
//   compact board      the playable squares in row-major order (a1, b1, ... of the local coordinates,
//                      off-board squares skipped): 36 characters on 6x6, 16 on 4x4, 24 on the diamonds,
//                      64 on 8x8 (X * B black, O W white, - . empty; whitespace ignored), then the side
//                      to move (X or O)
//   variant OBF        <compact board>; <local move>:<score>; ...   (% starts a comment)
#include <string>
#include <string_view>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"

namespace reversi {

// A square in local coordinates (a1..), or a pass; an error when it is not a playable square.
[[nodiscard]] Expected<Move> parse_local_move(std::string_view text, Variant variant);
// Local name of a square ("pass", "none" as move_to_string).
[[nodiscard]] std::string local_move_to_string(Move m, Variant variant);

[[nodiscard]] Expected<Position> parse_compact_board(std::string_view text, Variant variant);
// The compact listing, a space and the side to move.
[[nodiscard]] std::string to_compact_board(const Position& pos, Variant variant);

// An OBF line on the variant's board: the position is on the variant (playable squares, rule, start), the
// move scores are in 8x8 squares like every Move.
[[nodiscard]] Expected<ObfEntry> parse_variant_obf_line(std::string_view line, Variant variant);
// Reads a variant OBF file: blank and comment lines skipped; an error names the line.
[[nodiscard]] Expected<std::vector<ObfEntry>> read_variant_obf_file(const std::string& path, Variant variant);

}  // namespace reversi
