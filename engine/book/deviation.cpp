#include "engine/book/deviation.hpp"

#include <unordered_map>

namespace reversi::book {

namespace {

class Grower {
public:
    Grower(Book& book, const DeviationOptions& options, const BatchEvaluator& evaluate,
           const GrowthCallbacks& callbacks, const std::atomic<bool>* stop)
        : book_(book), options_(options), evaluate_(evaluate), callbacks_(callbacks), stop_(stop) {}

    void expand(const Position& pos, int ply) {
        if (stopped() || ply >= options_.plies || pos.moves() == 0) return;
        const BookKey key = canonical(pos).key;
        if (const auto it = visited_.find(key); it != visited_.end() && it->second <= ply) return;
        visited_[key] = ply;
        if (!book_.contains(pos)) add(pos);
        const auto moves = book_.moves(pos);
        const int best = moves.front().value;
        for (const BookMove& m : moves) {
            if (m.value < best - options_.deviation) break;
            const BookChild child = book_child(pos, m.square);
            if (!child.final_value) expand(child.position, ply + 1);
        }
    }

    void finish() {
        book_.negamax();
        report_.positions = book_.size();
        report_.stopped = stopped();
        if (callbacks_.save) callbacks_.save(book_);
    }

    [[nodiscard]] const GrowthReport& report() const noexcept { return report_; }

private:
    [[nodiscard]] bool stopped() const noexcept { return stop_ && stop_->load(std::memory_order_relaxed); }

    void add(const Position& pos) {
        const auto moves = move_values(book_, pos, evaluate_, report_.evaluations);
        if (!book_.set_moves(pos, moves)) return;  // not storable (Book::storable): more than 32 legal moves
        ++report_.added;
        report_.positions = book_.size();
        if (callbacks_.on_progress) callbacks_.on_progress(report_);
        if (options_.save_every != 0 && report_.added % options_.save_every == 0) {
            book_.negamax();
            if (callbacks_.save) callbacks_.save(book_);
        }
    }

    Book& book_;
    const DeviationOptions& options_;
    const BatchEvaluator& evaluate_;
    const GrowthCallbacks& callbacks_;
    const std::atomic<bool>* stop_;
    std::unordered_map<BookKey, int, BookKeyHash> visited_;  // the smallest ply each position was expanded at
    GrowthReport report_;
};

}  // namespace

GrowthReport grow_by_deviation(Book& book, const Position& root, const DeviationOptions& options,
                               const PositionEvaluator& evaluate, const GrowthCallbacks& callbacks,
                               const std::atomic<bool>* stop) {
    return grow_by_deviation(book, root, options, one_at_a_time(evaluate), callbacks, stop);
}

GrowthReport grow_by_deviation(Book& book, const Position& root, const DeviationOptions& options,
                               const BatchEvaluator& evaluate, const GrowthCallbacks& callbacks,
                               const std::atomic<bool>* stop) {
    Grower grower(book, options, evaluate, callbacks, stop);
    Position start = root;
    if (start.must_pass()) start = start.pass();
    if (book_variant(start)) grower.expand(start, 0);
    grower.finish();
    return grower.report();
}

}  // namespace reversi::book
