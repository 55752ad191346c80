#pragma once
// Growing a book by deviation (the idea of Edax's `book deviate`): from a root, every book position up to
// `plies` plies deep stores the values of all its legal moves, and each move whose value is within
// `deviation` discs of the position's best is followed. Values come from a caller's evaluator (the tool
// uses the engine's Searcher at a fixed depth, and an exact solve near the end). A position already in the
// book is never evaluated again, so a run restarted on a saved book continues where it stopped.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "engine/book/book.hpp"
#include "engine/book/node_values.hpp"

namespace reversi::book {

struct DeviationOptions {
    int plies = 10;                // book positions are at most plies - 1 moves from the root
    int deviation = 2;             // follow the moves within this many discs of the best
    std::size_t save_every = 100;  // call save after this many new positions (0: only at the end)
};

struct GrowthReport {
    std::size_t positions = 0;    // in the book
    std::size_t added = 0;        // new this run
    std::size_t evaluations = 0;  // evaluator calls this run
    bool stopped = false;         // `stop` ended the run early
};

struct GrowthCallbacks {
    std::function<void(const Book&)> save;                 // after negamax, every save_every positions and at the end
    std::function<void(const GrowthReport&)> on_progress;  // after each new position
};

// Grows `book` from `root` (a standard 8x8 position). Values are negamaxed before every save and at the end.
// The batch form evaluates the moves of each new position in one call (parallel leaf searches); both
// give the same book when their evaluators give the same values.
GrowthReport grow_by_deviation(Book& book, const Position& root, const DeviationOptions& options,
                               const PositionEvaluator& evaluate, const GrowthCallbacks& callbacks = {},
                               const std::atomic<bool>* stop = nullptr);
GrowthReport grow_by_deviation(Book& book, const Position& root, const DeviationOptions& options,
                               const BatchEvaluator& evaluate, const GrowthCallbacks& callbacks = {},
                               const std::atomic<bool>* stop = nullptr);

}  // namespace reversi::book
