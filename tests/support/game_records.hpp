#pragma once
// A game played from the standard start to its end by a move chooser, as a WTHOR record: the moves and
// black's final score (empties to the winner); the other fields are left for the caller.
#include <functional>

#include "engine/board/position.hpp"
#include "engine/data/wthor.hpp"

namespace reversi::testing {

// `choose` is called only when the side to move has a legal move; passes are played in between.
[[nodiscard]] data::WthorGame play_recorded_game(const std::function<Move(const Position&)>& choose);

}  // namespace reversi::testing
