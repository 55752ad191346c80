#include "engine/book/node_values.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace reversi::book {

int clamp_book_value(int v) noexcept { return std::clamp(v, -kMaxBookValue, kMaxBookValue); }

BatchEvaluator one_at_a_time(PositionEvaluator evaluate) {
    return [evaluate = std::move(evaluate)](const std::vector<Position>& positions) {
        std::vector<int> values;
        values.reserve(positions.size());
        for (const Position& p : positions) values.push_back(evaluate(p));
        return values;
    };
}

std::vector<BookMove> move_values(const Book& book, const Position& pos, const PositionEvaluator& evaluate,
                                  std::size_t& evaluations) {
    return move_values(book, pos, one_at_a_time(evaluate), evaluations);
}

std::vector<BookMove> move_values(const Book& book, const Position& pos, const BatchEvaluator& evaluate,
                                  std::size_t& evaluations) {
    struct Pending {
        std::size_t move = 0;  // index in `moves`
        int sign = 1;
    };
    std::vector<BookMove> moves;
    std::vector<Position> to_evaluate;
    std::vector<Pending> pending;
    for (const int sq : squares(pos.moves())) {
        const auto square = static_cast<Move>(sq);
        const BookChild child = book_child(pos, square);
        int v = 0;  // a move still to be evaluated keeps 0 until its value comes back
        if (child.final_value) {
            v = *child.final_value;
        } else if (const auto known = book.value(child.position)) {
            v = child.sign * *known;
        } else {
            to_evaluate.push_back(child.position);
            pending.push_back({moves.size(), child.sign});
        }
        moves.push_back({square, static_cast<std::int8_t>(clamp_book_value(v))});
    }
    if (to_evaluate.empty()) return moves;
    const std::vector<int> values = evaluate(to_evaluate);
    assert(values.size() == to_evaluate.size());
    evaluations += to_evaluate.size();
    for (std::size_t i = 0; i < pending.size(); ++i) {
        moves[pending[i].move].value =
            static_cast<std::int8_t>(clamp_book_value(pending[i].sign * clamp_book_value(values[i])));
    }
    return moves;
}

}  // namespace reversi::book
