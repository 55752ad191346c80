#pragma once
// Learning a game (NBoard `learn`, `reversi-book learn`): every position of a finished game up to `plies`
// plies from its start that is not yet in the book is added with the values of all its legal moves
// (node_values.hpp: the engine's search through the caller's evaluator, leaf_search.hpp), then the book is
// negamaxed. Passes are handled as the book handles them: a position whose side must pass is not stored,
// the position after the pass is (and a pass counts no ply, as in deviation.hpp). Learning a game twice
// changes nothing the second time.
#include <atomic>
#include <cstddef>
#include <vector>

#include "engine/book/book.hpp"
#include "engine/book/node_values.hpp"
#include "engine/core/expected.hpp"

namespace reversi::book {

struct LearnOptions {
    int plies = 20;  // positions at most plies - 1 moves (passes not counted) from the game's start
};

struct LearnReport {
    std::size_t added = 0;        // new positions
    std::size_t evaluations = 0;  // evaluator calls
    bool stopped = false;         // `stop` ended it early (the positions evaluated before are kept)
};

// The positions before each move of the game and the one after the last (implied passes inserted where a
// move follows a position whose side must pass, as transcripts without passes have them). An error names
// the first illegal move ("move 12 (a1): ...") and nothing is added.
[[nodiscard]] Expected<std::vector<Position>> game_positions(const Position& start, const std::vector<Move>& moves);

// Adds the game's positions to `book` (a standard 8x8 game, else an error; an illegal move is an error and
// the book is unchanged). A position whose evaluation `stop` interrupted is not stored.
[[nodiscard]] Expected<LearnReport> learn_game(Book& book, const Position& start, const std::vector<Move>& moves,
                                               const LearnOptions& options, const PositionEvaluator& evaluate,
                                               const std::atomic<bool>* stop = nullptr);

}  // namespace reversi::book
