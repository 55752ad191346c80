#include "engine/book/learn.hpp"

#include <string>

#include "engine/board/notation.hpp"

namespace reversi::book {

Expected<std::vector<Position>> game_positions(const Position& start, const std::vector<Move>& moves) {
    std::vector<Position> positions{start};
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Position& pos = positions.back();
        if (moves[i] != kPass && pos.must_pass()) positions.push_back(pos.pass());
        auto next = apply_move(positions.back(), moves[i]);
        if (!next) {
            return make_error("move " + std::to_string(i + 1) + " (" + move_to_string(moves[i]) +
                              "): " + next.error().message);
        }
        positions.push_back(*next);
    }
    return positions;
}

Expected<LearnReport> learn_game(Book& book, const Position& start, const std::vector<Move>& moves,
                                 const LearnOptions& options, const PositionEvaluator& evaluate,
                                 const std::atomic<bool>* stop) {
    if (!book_variant(start)) return make_error("not a standard 8x8 game: a book holds none of its positions");
    auto positions = game_positions(start, moves);
    if (!positions) return positions.error();
    LearnReport report;
    int ply = 0;
    for (std::size_t i = 0; i < positions->size() && ply < options.plies; ++i) {
        const Position& pos = (*positions)[i];
        if (i > 0 && (*positions)[i - 1].moves() != 0) ++ply;  // a pass is no ply
        if (ply >= options.plies || !Book::storable(pos) || book.contains(pos)) continue;
        const auto values = move_values(book, pos, evaluate, report.evaluations);
        if (stop && stop->load(std::memory_order_relaxed)) {
            report.stopped = true;
            break;
        }
        if (book.set_moves(pos, values)) ++report.added;
    }
    book.negamax();
    return report;
}

}  // namespace reversi::book
