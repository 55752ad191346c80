#pragma once
// Helpers shared by the book tests: a toy evaluator and book, and the check that every node of a book stores
// all its legal moves, and each move's value is its exact score when it ends the game and the value of its position
// when that is in the book.
#include <doctest/doctest.h>

#include "engine/board/variant.hpp"
#include "engine/book/book.hpp"
#include "engine/book/deviation.hpp"

namespace reversi::book::testing {

// A cheap stand-in for a search: mobility and disc difference, deterministic.
inline int toy_evaluation(const Position& pos) {
    return (popcount(pos.moves()) - popcount(pos.opponent_moves())) / 2 +
           (popcount(pos.player) - popcount(pos.opponent)) / 4;
}

// A book grown by deviation from the start with toy_evaluation.
inline Book toy_book(int plies, int deviation) {
    Book book;
    (void)grow_by_deviation(book, start_position(), {plies, deviation, 0}, toy_evaluation);
    return book;
}

inline void check_move_values(const Book& book) {
    for (const auto& [key, node] : book.nodes()) {
        const Position pos{key.player, key.opponent};
        CHECK(popcount(pos.moves()) == static_cast<int>(node.moves.size()));
        for (const BookMove& m : node.moves) {
            const BookChild child = book_child(pos, m.square);
            if (child.final_value) {
                CHECK(m.value == *child.final_value);
            } else if (const auto v = book.value(child.position)) {
                CHECK(m.value == child.sign * *v);
            }
        }
    }
}

}  // namespace reversi::book::testing
