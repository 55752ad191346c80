#pragma once
// Writer for WTHOR game files (.wtb), the format read by wthor.hpp: a 16-byte header, then 68-byte game
// records (see wthor.hpp). Used for the trainer's own games (reversi-train selfplay), so that they go
// through the same target builder as the tournament games. What the reader would refuse is an error here:
// a board size or game type other than 8x8 normal, a depth above 60, a score above 64, more than 60 moves
// or a move that is not a square.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/expected.hpp"
#include "engine/data/wthor.hpp"

namespace reversi::data {

[[nodiscard]] Expected<std::vector<std::uint8_t>> serialize_wthor(const WthorFile& file);
// Writes through a temporary file renamed into place, so a reader never sees half a file.
[[nodiscard]] Expected<bool> write_wthor_file(const std::string& path, const WthorFile& file);

}  // namespace reversi::data
