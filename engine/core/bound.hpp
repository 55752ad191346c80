#pragma once
// What a score says about the true value of a position, shared by the midgame search and the endgame
// solver: Exact, or a Lower bound (the search failed high: the value is at least the score) or an Upper
// bound (failed low: the value is at most the score).
#include <cstdint>

namespace reversi {

enum class Bound : std::uint8_t { Exact, Lower, Upper };

}  // namespace reversi
