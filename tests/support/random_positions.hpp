#pragma once
// Random reachable positions for differential tests: random games from a variant's start.
#include <cstdint>
#include <vector>

#include "engine/board/variant.hpp"

namespace reversi::testing {

// `count` positions (game-over positions included) met along seeded random games of `variant`.
std::vector<Position> random_positions(Variant variant, int count, std::uint64_t seed);

// The shared data folder (../shared/data), or an empty string when it is absent.
std::string shared_data_dir();

}  // namespace reversi::testing
