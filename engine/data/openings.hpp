#pragma once
// Openings for matches and self-play: a start position plus the moves played from it. Read from a
// file (one per line: a transcript such as f5d6c3d3c4 -- the XOT lists are of this form -- or a board string
// "<64 squares> <side>"; blank lines and lines starting with # or % are skipped). The balanced random
// openings, which need the search, are generated above this layer (tools/match/random_openings.hpp).
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/board/variant.hpp"
#include "engine/core/expected.hpp"

namespace reversi::data {

struct Opening {
    Position start;           // the game's start (variant start for transcripts, the board for board strings)
    std::vector<Move> moves;  // played from `start` before the engines take over
    std::string text;         // as read / generated, for logs

    [[nodiscard]] Position position() const;
};

// One line; `variant` gives the start for transcripts and the board for board strings.
[[nodiscard]] Expected<Opening> parse_opening(const std::string& line, Variant variant);
// Every opening of the file; an error names the file, the line number and the problem. Openings whose
// game is already over are refused.
[[nodiscard]] Expected<std::vector<Opening>> read_openings(const std::string& path, Variant variant);

}  // namespace reversi::data
