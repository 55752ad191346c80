#pragma once
// The server-wide memory budget for the sessions' transposition tables (--max-memory): sessions reserve
// their Hash size before allocating and release it when they shrink or end. Thread-safe.
#include <cstddef>
#include <mutex>

namespace reversi::session {

class MemoryBudget {
public:
    explicit MemoryBudget(std::size_t total_mib) : total_(total_mib) {}
    // Reserves `mib`; false (nothing reserved) when less than that is left.
    [[nodiscard]] bool reserve(std::size_t mib);
    void release(std::size_t mib) noexcept;
    [[nodiscard]] std::size_t available() const;
    [[nodiscard]] std::size_t total() const noexcept { return total_; }

private:
    mutable std::mutex mutex_;
    std::size_t total_;
    std::size_t used_ = 0;
};

}  // namespace reversi::session
