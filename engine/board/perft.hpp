#pragma once
// Move-path enumeration. A pass counts as a ply (the Edax convention): a position where the side to
// move must pass has one child, the position after the pass. A game that ends before the requested
// depth counts as one leaf (its final position). With these rules the counts from the 8x8 start are
// the published ones: 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, ...
#include <cstdint>

#include "engine/board/position.hpp"

namespace reversi {

[[nodiscard]] std::uint64_t perft(const Position& pos, int depth) noexcept;

}  // namespace reversi
