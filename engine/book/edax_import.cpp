#include "engine/book/edax_import.hpp"

#include <algorithm>

namespace reversi::book {

EdaxImportReport import_edax_positions(Book& book, const std::vector<EdaxPosition>& positions,
                                       const PositionEvaluator& evaluate,
                                       const std::function<void(const EdaxImportReport&)>& on_progress,
                                       const std::atomic<bool>* stop) {
    EdaxImportReport report;
    report.read = positions.size();
    std::vector<BookKey> todo;
    for (const EdaxPosition& p : positions) {
        const BookKey key = canonical(p.board.player, p.board.opponent).key;
        if (legal_moves(key.player, key.opponent) == 0) {
            ++report.no_move;
        } else if (book.find(key) != nullptr) {
            ++report.already;
        } else {
            todo.push_back(key);
        }
    }
    // The deepest positions first (more discs), so that a parent's moves find their children's values;
    // then by key, so that the order does not depend on the file's.
    std::sort(todo.begin(), todo.end(), [](const BookKey& a, const BookKey& b) {
        const int da = popcount(a.player | a.opponent);
        const int db = popcount(b.player | b.opponent);
        return da != db ? da > db : a < b;
    });
    todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
    for (const BookKey& key : todo) {
        if (stop != nullptr && stop->load(std::memory_order_relaxed)) {
            report.stopped = true;
            break;
        }
        const Position pos{key.player, key.opponent};
        if (!Book::storable(pos)) continue;  // more legal moves than a book position holds
        std::vector<BookMove> moves = move_values(book, pos, evaluate, report.evaluations);
        if (stop != nullptr && stop->load(std::memory_order_relaxed)) {  // a value of a stopped search
            report.stopped = true;
            break;
        }
        if (!book.set_moves(pos, moves)) continue;
        ++report.added;
        if (on_progress) on_progress(report);
    }
    book.negamax();
    return report;
}

}  // namespace reversi::book
