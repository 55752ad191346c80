#pragma once
// The games `reversi-book learn` reads: a text file of GGF games (one or more `(;GM[Othello]...;)` per line,
// as reversi-match and the GGS archives write them; protocol/nboard/ggf.hpp parses them) and/or move
// transcripts from the start position, one a line (f5d6c3d3c4..., passes optional). Blank lines and lines
// starting with # or % are skipped. A game that cannot be read is skipped with a message naming it.
// A file named *.wtb is a WTHOR database (engine/data/wthor.hpp, e.g. ../shared/data/wthor): its games,
// named "FILE game K"; an unreadable WTHOR file is an error.
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"

namespace reversi::book_tool {

struct GameRecord {
    std::string name;  // "FILE:LINE" (and " game K" for the K-th GGF game of a line)
    Position start;
    std::vector<Move> moves;
};

struct GamesFile {
    std::vector<GameRecord> games;
    std::vector<std::string> skipped;  // one message per unreadable game, naming it
};

// An error only when the file cannot be read at all.
[[nodiscard]] Expected<GamesFile> read_games_file(const std::string& path);

}  // namespace reversi::book_tool
