#pragma once
// The server-wide memory budget for the sessions' transposition tables (--max-memory): sessions reserve
// their memory before allocating and release it when they shrink or end. Thread-safe.
//
// A session counts 2 x Hash + kSessionOverheadMiB: the Searcher's transposition table (Hash MiB), the
// endgame solver's table of the same size (allocated on the first exact solve) and the rest of its state.
// The server reserves kServerBaseMiB for itself first. Measured in docs/security.md ("Memory").
#include <cstddef>
#include <mutex>

namespace reversi::session {

// What a session holds beyond its two tables while it solves endgames: search and solver state, its job
// thread's stack and allocator arena (measured 3.4-3.9 MiB per session).
inline constexpr std::size_t kSessionOverheadMiB = 4;
// The server without sessions: code, Asio and the embedded evaluation, decoded on the first session and
// shared by all (its weights, 8.2 MB, and their blended tables, 49 MB in 2 MiB pages; measured 63 MiB
// resident once a session of Hash 1 has left, docs/security.md "Memory").
inline constexpr std::size_t kServerBaseMiB = 68;

// MiB a session with this Hash size may use (both tables and the rest of its state).
[[nodiscard]] constexpr std::size_t session_memory_mib(std::size_t hash_mib) noexcept {
    return 2 * hash_mib + kSessionOverheadMiB;
}
static_assert(session_memory_mib(16) == 36);

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
