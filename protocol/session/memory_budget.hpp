#pragma once
// The server-wide memory budget for the sessions' transposition tables (--max-memory): sessions reserve
// their memory before allocating and release it when they shrink or end. Thread-safe.
//
// A session counts 2 x Hash: the Searcher's transposition table (Hash MiB) plus the endgame solver's table
// of the same size, which the Searcher allocates on its first exact solve.
#include <cstddef>
#include <mutex>

namespace reversi::session {

// MiB a session with this Hash size may use (both tables).
[[nodiscard]] constexpr std::size_t session_memory_mib(std::size_t hash_mib) noexcept { return 2 * hash_mib; }
static_assert(session_memory_mib(16) == 32);

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
