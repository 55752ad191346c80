#pragma once
// Reader for the WTHOR game database of the Fédération Française d'Othello (.wtb files).
// Format (little-endian; /work/shared/data/wthor/README.md): a 16-byte header (creation date, N1 games,
// N2, year of the games, board size P1 (8 or 0), game type P2 (0), depth P3 of the theoretical score),
// then N1 records of 68 bytes: tournament, black and white player indices (u16 each), black's actual
// score (discs, empties to the winner), black's theoretical score (perfect play from P3 empties on), and
// 60 move bytes 10*row + column (11 = a1 ... 88 = h8; 0 = no more moves; passes are not recorded).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"

namespace reversi::data {

inline constexpr std::size_t kWthorHeaderSize = 16;
inline constexpr std::size_t kWthorGameSize = 68;

struct WthorHeader {
    int created_year = 0;  // century * 100 + year
    int created_month = 0;
    int created_day = 0;
    std::uint32_t game_count = 0;
    int games_year = 0;
    int board_size = 8;
    int game_type = 0;
    int theory_depth = 0;  // empties from which the theoretical score assumes perfect play
};

struct WthorGame {
    std::uint16_t tournament = 0;
    std::uint16_t black_player = 0;
    std::uint16_t white_player = 0;
    int black_score = 0;              // black discs at the end (empties to the winner)
    int theoretical_black_score = 0;  // black discs with perfect play from theory_depth empties on
    std::vector<Move> moves;          // squares (a1 = 0), passes not recorded
};

struct WthorFile {
    WthorHeader header;
    std::vector<WthorGame> games;
};

// Errors name the source and what is wrong: short or inconsistent size, unsupported board or game type,
// a move byte that is not a square (with the game number and move number).
[[nodiscard]] Expected<WthorFile> parse_wthor(std::span<const std::uint8_t> bytes, const std::string& source);
[[nodiscard]] Expected<WthorFile> read_wthor_file(const std::string& path);

// A game replayed from the standard start: the position before each recorded move (passes are played
// when the side to move has no legal move), and the last position.
struct ReplayedGame {
    std::vector<Position> before_move;
    Position last;
    [[nodiscard]] bool finished() const noexcept { return last.is_over(); }
};
// An illegal move is an error naming its number (1-based) and square.
[[nodiscard]] Expected<ReplayedGame> replay_game(const WthorGame& game);

}  // namespace reversi::data
