#pragma once
// The exact solver's transposition table, shared by all search threads.
//
// Every stored bound carries the selectivity level of the search that proved it (selectivity.hpp):
// level 0 is a proven bound on the exact final score; a level L > 0 bound comes from a selective pass
// (probcut with confidence kSelectivityT[L]) and may be wrong. A search of level S may cut on a bound
// of level L only when L <= S (see usable()), so a selective bound never cuts an exact search; best
// moves of any level are used for ordering. Bounds of the same level are merged (lower = max, upper =
// min); a more exact store replaces the bounds of a less exact entry; a less exact store keeps the
// entry's bounds and only updates its moves.
//
// Layout: buckets of 4 entries of 16 bytes = one 64-byte cache line. An entry is two 64-bit words,
// both std::atomic<uint64_t> accessed with relaxed loads and stores (no data race, TSan-clean):
//   check = key ^ data      (lockless hashing: a torn entry fails the key check and reads as a miss)
//   data  bits  0- 7  lower bound (int8, -64..64)
//               8-15  upper bound (int8, -64..64)
//              16-23  best move (square 0-63, 64 = none)
//              24-31  second move (the previous best move)
//              32-39  empties of the position (replacement priority)
//              40-47  generation (bumped by each solve; older entries are replaced first)
//              48-55  log2 of the nodes spent (replacement priority)
//              56-63  selectivity level of the bounds (0 = exact, up to kMaxSelectivityLevel)
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/board/bitboard.hpp"
#include "engine/core/huge_pages.hpp"

namespace reversi::endgame {

// One probed entry of the endgame table (the midgame table's is reversi::TTData, engine/search/).
struct EndgameTTData {
    int lower = -64;
    int upper = 64;
    Move move = kNoMove;
    Move second = kNoMove;
    int empties = 0;
    int selectivity_level = 0;  // of the bounds: 0 = exact

    // The bounds may cut a search of selectivity level `level` (they are at least as exact).
    [[nodiscard]] constexpr bool usable(int level) const noexcept { return selectivity_level <= level; }
    // True, with `score` set, when the bounds are usable at `level` and decide the window (alpha, beta):
    // a lower bound >= beta, an upper bound <= alpha, or an exact value.
    [[nodiscard]] constexpr bool cuts(int level, int alpha, int beta, int& score) const noexcept {
        if (!usable(level)) return false;
        if (lower >= beta || lower == upper) {
            score = lower;
            return true;
        }
        if (upper <= alpha) {
            score = upper;
            return true;
        }
        return false;
    }
};

class EndgameTT {
public:
    static constexpr int kWays = 4;
    static constexpr int kNearEmpties = 13;
    static constexpr std::size_t kNearMiB = 8;
    struct Entry {
        std::atomic<std::uint64_t> check{0};
        std::atomic<std::uint64_t> data{0};
    };
    struct alignas(64) Bucket {
        Entry entries[kWays];
    };
    static_assert(sizeof(Entry) == 16, "a TT entry is two 64-bit words");
    static_assert(sizeof(Bucket) == 64, "a TT bucket is one cache line");

    explicit EndgameTT(std::size_t mib = 64);
    // Resizes (clearing the table); false and the old table kept when the memory is not available.
    [[nodiscard]] bool resize(std::size_t mib);
    [[nodiscard]] std::size_t size_mib() const noexcept { return mib_; }
    void clear() noexcept;
    void new_search() noexcept { generation_ = static_cast<std::uint8_t>(generation_ + 1); }

    // `empties`: the position's (it picks the part of the table: near or far, above).
    [[nodiscard]] bool probe(std::uint64_t key, int empties, EndgameTTData& out) const noexcept;
    // Merges the bound [lower, upper] (and the best move when known) into the position's entry.
    // `selectivity_level`: the level of the search that proved the bound (0 = exact).
    void store(std::uint64_t key, int empties, int lower, int upper, Move move, std::uint64_t nodes,
               int selectivity_level = 0) noexcept;
    // Always inlined: GCC 12 deletes calls to a function whose only effect is a prefetch
    // (tools/scripts/check-prefetch.sh).
    [[gnu::always_inline]] void prefetch(std::uint64_t key, int empties) const noexcept {
        __builtin_prefetch(&bucket(key, empties));
    }
    // Per mille of the entries written by the current generation, over 1000 entries spread over the table.
    [[nodiscard]] int hashfull() const noexcept;

private:
    [[nodiscard]] Bucket& bucket(std::uint64_t key, int empties) const noexcept {
        return buckets_[key & (empties < kNearEmpties ? near_mask_ : mask_)];
    }
    static std::uint64_t pack(int lower, int upper, Move move, Move second, int empties, std::uint8_t generation,
                              int cost, int selectivity_level) noexcept;
    HugeArray<Bucket> buckets_;  // engine/core/huge_pages.hpp: 2 MiB pages where the kernel grants them
    std::size_t mask_ = 0;
    std::size_t near_mask_ = 0;  // the near part's buckets - 1 (the whole table when it is smaller)
    std::size_t mib_ = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace reversi::endgame
