#include "protocol/session/memory_budget.hpp"

namespace reversi::session {

bool MemoryBudget::reserve(std::size_t mib) {
    std::lock_guard lock(mutex_);
    if (mib > total_ - used_) return false;
    used_ += mib;
    return true;
}

void MemoryBudget::release(std::size_t mib) noexcept {
    std::lock_guard lock(mutex_);
    used_ = mib > used_ ? 0 : used_ - mib;
}

std::optional<MemoryReservation> MemoryReservation::take(MemoryBudget* budget, std::size_t mib) {
    if (budget == nullptr) return MemoryReservation{};
    if (!budget->reserve(mib)) return std::nullopt;
    return MemoryReservation(budget, mib);
}

std::size_t MemoryBudget::available() const {
    std::lock_guard lock(mutex_);
    return total_ - used_;
}

}  // namespace reversi::session
