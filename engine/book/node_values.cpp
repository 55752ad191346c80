#include "engine/book/node_values.hpp"

#include <algorithm>

namespace reversi::book {

int clamp_book_value(int v) noexcept { return std::clamp(v, -kMaxBookValue, kMaxBookValue); }

std::vector<BookMove> move_values(const Book& book, const Position& pos, const PositionEvaluator& evaluate,
                                  std::size_t& evaluations) {
    std::vector<BookMove> moves;
    for (const int sq : squares(pos.moves())) {
        const auto square = static_cast<Move>(sq);
        const BookChild child = book_child(pos, square);
        int v = 0;
        if (child.final_value) {
            v = *child.final_value;
        } else if (const auto known = book.value(child.position)) {
            v = child.sign * *known;
        } else {
            v = child.sign * clamp_book_value(evaluate(child.position));
            ++evaluations;
        }
        moves.push_back({square, static_cast<std::int8_t>(clamp_book_value(v))});
    }
    return moves;
}

}  // namespace reversi::book
