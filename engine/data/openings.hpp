#pragma once
// Openings for matches and self-play: a start position plus the moves played from it. Read from a
// file (one per line: a transcript such as f5d6c3d3c4 -- the XOT lists are of this form -- or a board string
// "<64 squares> <side>"; blank lines and lines starting with # or % are skipped), or generated as
// random legal games of N plies kept when a shallow search scores the result within +-K discs.
#include <cstdint>
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

struct RandomOpeningSpec {
    int plies = 8;         // random legal moves from the variant's start (a forced pass counts as one)
    int balance = 64;      // keep when |score| <= balance discs
    int search_depth = 4;  // depth of the balancing search (0: keep every opening)
    std::uint64_t seed = 1;
};

// `count` distinct random openings (deterministic for a seed). Uses the engine library's Searcher.
[[nodiscard]] Expected<std::vector<Opening>> random_openings(const RandomOpeningSpec& spec, int count, Variant variant);

}  // namespace reversi::data
