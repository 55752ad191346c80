#pragma once
// Checks shared by the book tests: every node of a book stores all its legal moves, and each move's value is
// its exact score when it ends the game and the value of its position when that is in the book.
#include <doctest/doctest.h>

#include "engine/book/book.hpp"

namespace reversi::book::testing {

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
