#include "protocol/session/thread_budget.hpp"

#include <algorithm>

namespace reversi::session {

int ThreadBudget::acquire(int wanted) {
    std::lock_guard lock(mutex_);
    const int granted = std::clamp(total_ - used_, 1, std::max(wanted, 1));
    used_ += granted;
    return granted;
}

void ThreadBudget::release(int count) noexcept {
    std::lock_guard lock(mutex_);
    used_ = std::max(used_ - count, 0);
}

int ThreadBudget::in_use() const {
    std::lock_guard lock(mutex_);
    return used_;
}

}  // namespace reversi::session
