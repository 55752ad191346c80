#include "engine/endgame/split_point.hpp"

#include <algorithm>

namespace reversi::endgame {

int SplitPoint::take() noexcept {
    std::lock_guard lock(mutex_);
    return has_moves() ? next_++ : -1;
}

int SplitPoint::alpha() noexcept {
    std::lock_guard lock(mutex_);
    return alpha_;
}

void SplitPoint::merge(int index, int score) noexcept {
    std::lock_guard lock(mutex_);
    if (score <= best_) return;
    best_ = score;
    best_move_ = static_cast<Move>(list_.moves[static_cast<std::size_t>(index)].square);
    if (best_ > alpha_) alpha_ = best_;
    if (best_ >= beta_) stop_.store(true, std::memory_order_relaxed);
}

void SplitPoint::leave(const WorkerCounts& counts) noexcept {
    std::lock_guard lock(mutex_);
    --helpers_;
    helper_counts_ += counts;
}

int SplitPoint::helpers() noexcept {
    std::lock_guard lock(mutex_);
    return helpers_;
}

bool SplitPoint::admit() noexcept {
    std::lock_guard lock(mutex_);
    if (!has_moves()) return false;
    ++helpers_;
    return true;
}

void SplitBoard::publish(SplitPoint& sp) {
    std::lock_guard lock(mutex_);
    open_.push_back(&sp);
    offers_.fetch_add(1, std::memory_order_relaxed);
    open_count_.store(static_cast<int>(open_.size()), std::memory_order_relaxed);
}

void SplitBoard::withdraw(SplitPoint& sp) {
    std::lock_guard lock(mutex_);
    open_.erase(std::remove(open_.begin(), open_.end(), &sp), open_.end());
    open_count_.store(static_cast<int>(open_.size()), std::memory_order_relaxed);
}

SplitPoint* SplitBoard::enter(int max_empties) {
    if (open_count_.load(std::memory_order_relaxed) == 0) return nullptr;
    std::lock_guard lock(mutex_);
    // The split point nearest the root: the most work per entry.
    SplitPoint* chosen = nullptr;
    for (SplitPoint* sp : open_) {
        if (sp->empties() < max_empties && (!chosen || sp->empties() > chosen->empties())) chosen = sp;
    }
    return chosen && chosen->admit() ? chosen : nullptr;
}

}  // namespace reversi::endgame
