#pragma once
// Bringing an Edax book's positions into this book (the format: edax_book.hpp). Edax stores values only
// for its explored moves and its best unexplored one; this book stores every legal move with a value,
// and never stores a move the engine did not verify: each imported position gets the values of all its
// moves from the engine's own evaluator (node_values.hpp: exact at the end of the game, from the book
// where the move's position is in it, else searched), the deepest positions first so that their parents
// find them; the book is then negamaxed. Edax's own scores are not stored.
#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/book/edax_book.hpp"
#include "engine/book/node_values.hpp"

namespace reversi::book {

struct EdaxImportReport {
    std::size_t read = 0;         // positions in the Edax book
    std::size_t added = 0;        // new in this book
    std::size_t already = 0;      // already in this book (kept as they are)
    std::size_t no_move = 0;      // the side to move must pass or the game is over (not stored here)
    std::size_t evaluations = 0;  // evaluator calls
    bool stopped = false;         // `stop` ended the import early (what was added stays, negamaxed)
};

// Adds the positions to `book`; `on_progress` after each new position.
EdaxImportReport import_edax_positions(Book& book, const std::vector<EdaxPosition>& positions,
                                       const PositionEvaluator& evaluate,
                                       const std::function<void(const EdaxImportReport&)>& on_progress = {},
                                       const std::atomic<bool>* stop = nullptr);

}  // namespace reversi::book
