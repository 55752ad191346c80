#pragma once
// The probcut calibration of reversi-solve (--calibrate-probcut): see calibrate.cpp.
#include <vector>

#include "engine/board/notation.hpp"

namespace reversi::solve_tool {

// Prints the fitted endgame probcut table for positions reached from `entries`; `samples` positions
// per empties count (fewer above 20 empties). Returns the exit status.
[[nodiscard]] int calibrate_probcut(const std::vector<ObfEntry>& entries, int samples);

}  // namespace reversi::solve_tool
