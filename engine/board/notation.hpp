#pragma once
// Text forms of squares, moves, boards, transcripts and OBF lines, parsed into error values.
//   squares      a1..h8, case-insensitive
//   pass         pass, PA, ps, @@, @@@@ or -- (case-insensitive)
//   board string 64 squares a1..h8 (X * B black, O W white, - . empty; whitespace ignored) then the side
//                to move (X * B or O W)
//   transcript   moves run together or separated by spaces/commas: f5d6c3d3, "f5 d6 pass c3"
//   OBF          <board string>; <move>:<score>; ...   (% starts a comment)
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/board/variant.hpp"
#include "engine/core/expected.hpp"

namespace reversi {

[[nodiscard]] Expected<Move> parse_move(std::string_view text);
// "a1".."h8", "pass", or "none" for kNoMove. Lower case.
[[nodiscard]] std::string move_to_string(Move m);

// Board string on a variant's board: discs outside its playable squares are an error.
[[nodiscard]] Expected<Position> parse_board(std::string_view text, Variant variant = Variant::Standard);
// 64 characters (X, O, -) a1..h8, a space and the side to move (X or O).
[[nodiscard]] std::string to_board_string(const Position& pos);

[[nodiscard]] Expected<std::vector<Move>> parse_transcript(std::string_view text);
// Plays the moves from `start`; an error names the first bad move and its number (1-based).
[[nodiscard]] Expected<Position> play_moves(const Position& start, const std::vector<Move>& moves);
[[nodiscard]] Expected<Position> play_transcript(const Position& start, std::string_view text);
[[nodiscard]] std::string to_transcript(const std::vector<Move>& moves);

struct ObfEntry {
    Position position;
    std::vector<std::pair<Move, int>> move_scores;  // as listed (best first in the FFO files)
    std::optional<int> score;                       // a single "+N;" field, when present
    std::string comment;                            // text after %, trimmed

    // The position's exact value: the score field, else the best listed move score.
    [[nodiscard]] std::optional<int> best_score() const;
};

[[nodiscard]] Expected<ObfEntry> parse_obf_line(std::string_view line);
// The same with the board field read by `read_board` and the moves of the score fields by `read_move` (a
// variant's board and squares: variant_notation.hpp); a score beyond +-max_score, or a move scored twice
// with two scores, is an error, and an error quotes the field as written.
using ObfBoardReader = std::function<Expected<Position>(std::string_view)>;
using ObfMoveReader = std::function<Expected<Move>(std::string_view)>;
[[nodiscard]] Expected<ObfEntry> parse_obf_line(std::string_view line, const ObfBoardReader& read_board,
                                                const ObfMoveReader& read_move, int max_score);
// Reads an OBF file: blank lines and lines that are only a comment are skipped; an error names the line.
[[nodiscard]] Expected<std::vector<ObfEntry>> read_obf_file(const std::string& path);
// The same with each line read by `read_line` (a variant's lines: variant_notation.hpp).
using ObfLineReader = std::function<Expected<ObfEntry>(std::string_view)>;
[[nodiscard]] Expected<std::vector<ObfEntry>> read_obf_file(const std::string& path, const ObfLineReader& read_line);

// A framed board for people: coordinates, * black, O white, . legal move, blank off the variant's board.
[[nodiscard]] std::string render_board(const Position& pos);

}  // namespace reversi
