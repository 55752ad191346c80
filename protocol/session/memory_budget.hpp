#pragma once
// The server-wide memory budget for the sessions' transposition tables and evaluations (--max-memory):
// sessions reserve their memory before allocating and release it when they shrink or end. Thread-safe.
//
// A session counts 2 x Hash + kSessionOverheadMiB: the Searcher's transposition table (Hash MiB), the
// endgame solver's table of the same size (allocated on the first exact solve) and the rest of its state.
// The server reserves kServerBaseMiB for itself first. Measured in docs/security.md ("Memory").
#include <cstddef>
#include <mutex>
#include <optional>
#include <utility>

namespace reversi::session {

// What a session holds beyond its two tables while it solves endgames: search and solver state, its job
// thread's stack and allocator arena (measured 3.4-3.9 MiB per session).
inline constexpr std::size_t kSessionOverheadMiB = 4;
// The server without sessions: code, Asio and the embedded evaluation, decoded on the first session and
// shared by all (its weights, 8.2 MB, and their blended tables, 49 MB in 2 MiB pages; measured 63 MiB
// resident once a session of Hash 1 has left, docs/security.md "Memory").
inline constexpr std::size_t kServerBaseMiB = 68;

// A session's own evaluation, loaded with `setoption name EvalFile` (servers with --data-dir): its
// weights and their blended tables, not shared with other sessions (measured: 58 MiB more resident after
// loading the shipped weights file, docs/security.md "Memory").
inline constexpr std::size_t kEvalFileMiB = 58;

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

// MiB held in a budget for as long as the object lives: the destructor (or a move-assignment over it)
// gives them back. An empty reservation holds nothing.
class MemoryReservation {
public:
    MemoryReservation() = default;
    // Reserves `mib` in `budget`; nullopt when the budget has less left. With no budget (stdio sessions),
    // an empty reservation: there is no limit to keep.
    [[nodiscard]] static std::optional<MemoryReservation> take(MemoryBudget* budget, std::size_t mib);
    // Takes over `mib` already reserved in `budget` (by MemoryBudget::reserve): released with this object.
    [[nodiscard]] static MemoryReservation adopt(MemoryBudget* budget, std::size_t mib) noexcept {
        return MemoryReservation(budget, mib);
    }
    MemoryReservation(MemoryReservation&& other) noexcept { swap(other); }
    MemoryReservation& operator=(MemoryReservation&& other) noexcept {
        MemoryReservation(std::move(other)).swap(*this);
        return *this;
    }
    MemoryReservation(const MemoryReservation&) = delete;
    MemoryReservation& operator=(const MemoryReservation&) = delete;
    ~MemoryReservation() {
        if (budget_ != nullptr) budget_->release(mib_);
    }
    [[nodiscard]] std::size_t mib() const noexcept { return mib_; }
    // Leaves the MiB reserved and forgets them: their owner accounts for them from now on.
    void keep() noexcept {
        budget_ = nullptr;
        mib_ = 0;
    }

private:
    MemoryReservation(MemoryBudget* budget, std::size_t mib) noexcept : budget_(budget), mib_(mib) {}
    void swap(MemoryReservation& other) noexcept {
        std::swap(budget_, other.budget_);
        std::swap(mib_, other.mib_);
    }
    MemoryBudget* budget_ = nullptr;
    std::size_t mib_ = 0;
};

}  // namespace reversi::session
