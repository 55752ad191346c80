#pragma once
// The values of all the legal moves of a new book position, shared by the ways a book grows (deviation.hpp,
// learn.hpp): a move that ends the game has its exact score, a move whose position is in the book takes
// its value from there, and every other move's position is evaluated by the caller's evaluator (the
// engine's search, leaf_search.hpp). A book never stores a move the engine did not verify.
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/book/book.hpp"

namespace reversi::book {

// The value of a position that is not over, in discs from its side to move (clamped to -64..64 by
// move_values).
using PositionEvaluator = std::function<int(const Position&)>;

// The values of several positions at once, in their order (the tool's parallel leaf searches,
// leaf_search.hpp); each value is what the matching PositionEvaluator gives that position alone.
using BatchEvaluator = std::function<std::vector<int>(const std::vector<Position>&)>;

// A BatchEvaluator calling `evaluate` on each position in turn.
[[nodiscard]] BatchEvaluator one_at_a_time(PositionEvaluator evaluate);

[[nodiscard]] int clamp_book_value(int v) noexcept;

// Every legal move of `pos` (which has one) with its value from pos's side to move, squares ascending;
// adds the evaluator calls to `evaluations`. The batch form evaluates the positions of all the moves
// that need a value in one call.
[[nodiscard]] std::vector<BookMove> move_values(const Book& book, const Position& pos,
                                                const PositionEvaluator& evaluate, std::size_t& evaluations);
[[nodiscard]] std::vector<BookMove> move_values(const Book& book, const Position& pos, const BatchEvaluator& evaluate,
                                                std::size_t& evaluations);

}  // namespace reversi::book
