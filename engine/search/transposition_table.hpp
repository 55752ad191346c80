#pragma once
// Transposition table shared by every search thread of a Searcher (and usable by the generic
// algorithms on any game: scores are stored with 22 bits, enough for TreeNode::kScoreBound = 2^20).
//
// Layout. The table is an array of 2^k buckets of 64 bytes (one cache line); a bucket holds 4 entries of
// 16 bytes. An entry is two 64-bit words:
//   word 0: check = key ^ data      word 1: data
//   data bits  0-21  lower bound + 2^21   (22 bits, the value is >= lower)
//              22-43 upper bound + 2^21   (22 bits, the value is <= upper)
//              44-50 best move            (7 bits: square 0..63, kPass = 64, kNoMove = 65)
//              51-57 depth                (7 bits: remaining plies the bounds hold for, 0..127)
//              58-62 generation           (5 bits: the search that wrote it, for aging)
//              63    selective            (1 bit: written by a selective (Multi-ProbCut) search)
// The bucket index is the low bits of the key; the whole key is verified through the xor check. The
// buckets live in 2 MiB pages where the kernel grants them: probed at random, a table of 4 KiB pages
// misses the TLB at almost every probe.
//
// Concurrency (lock-free, "xor trick"): both words are std::atomic<uint64_t> read and written with
// relaxed ordering, so there is no data race in the C++ sense (TSan-clean). A reader that sees word 0 of
// one write and word 1 of another gets check ^ data != key and treats the entry as a miss; a torn entry
// is therefore never used. Two threads storing into the same slot at once can lose one of the stores,
// which only costs a re-search. Nothing else is shared.
//
// Selective entries. A search with Multi-ProbCut (engine/search/probcut_search.hpp) stores its bounds
// with the selective flag: they are only probable, so a search without selective cuts (an exact solve,
// selectivity 100) must not take a cutoff from them; it still uses their move for ordering. An entry of
// a non-selective search is valid for both kinds (engine/search/search_context.hpp, probe()).
//
// Replacement: an entry with the same key is updated (bounds of equal depth and equal selectivity are
// merged: the tighter of each bound is kept); the old entry is kept instead when it is at least as deep
// and not weaker (non-selective, or both selective); a non-selective result replaces a selective one of
// any depth. Otherwise the entry with the smallest depth - 4 * age is replaced, where age is how many
// searches ago it was written (modulo 32).
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "engine/board/bitboard.hpp"
#include "engine/board/position.hpp"
#include "engine/core/huge_pages.hpp"

namespace reversi {

struct TTData {
    int lower = 0;
    int upper = 0;
    Move move = kNoMove;
    int depth = 0;
    bool selective = false;  // written by a selective search: its bounds are only probable
};

class TranspositionTable {
public:
    static constexpr int kScoreBits = 22;
    static constexpr int kScoreOffset = 1 << (kScoreBits - 1);
    static constexpr int kMaxScore = kScoreOffset - 1;  // storable scores: [-kMaxScore, kMaxScore]
    static constexpr int kMaxDepth = 127;
    static constexpr int kEntriesPerBucket = 4;
    static constexpr unsigned kGenerationBits = 5;
    static constexpr unsigned kGenerationMask = (1u << kGenerationBits) - 1;

    struct Entry {
        std::atomic<std::uint64_t> check{0};
        std::atomic<std::uint64_t> data{0};
    };
    struct alignas(64) Bucket {
        std::array<Entry, kEntriesPerBucket> entries;
    };
    static_assert(sizeof(Entry) == 16, "an entry is two 64-bit words");
    static_assert(sizeof(Bucket) == 64, "a bucket is one cache line");
    static_assert(2 * kScoreBits + 7 + 7 + kGenerationBits + 1 == 64, "the data word is exactly 64 bits");
    static_assert(kPass < 128 && kNoMove < 128, "moves fit in 7 bits");

    // A table of at most `mib` MiB (rounded down to a power-of-two number of buckets, at least one).
    explicit TranspositionTable(std::size_t mib = 16);
    // False (and the table unchanged) when the memory cannot be allocated.
    [[nodiscard]] bool resize(std::size_t mib);
    [[nodiscard]] std::size_t size_mib() const noexcept { return mib_; }
    [[nodiscard]] std::size_t bucket_count() const noexcept { return mask_ + 1; }
    void clear() noexcept;
    // Starts a new search: later stores carry the new generation.
    void new_generation() noexcept { generation_ = (generation_ + 1) & kGenerationMask; }

    [[nodiscard]] bool probe(std::uint64_t key, TTData& out) const noexcept;
    // Asks the memory for the bucket of `key`, so that a probe soon after does not wait for it.
    // Always inlined: GCC 12 deletes calls to a function whose only effect is a prefetch
    // (tools/scripts/check-prefetch.sh).
    [[gnu::always_inline]] void prefetch(std::uint64_t key) const noexcept {
        __builtin_prefetch(&buckets_[key & mask_]);
    }
    // Scores are clamped to the storable range; depth to 0..kMaxDepth. `selective`: the bounds come from
    // a selective search (see above).
    void store(std::uint64_t key, int depth, int lower, int upper, Move move, bool selective = false) noexcept;
    // Entries of the current generation per mille, sampled over the first buckets.
    [[nodiscard]] int hashfull() const noexcept;

    [[nodiscard]] static std::uint64_t pack(const TTData& d, unsigned generation) noexcept;
    [[nodiscard]] static TTData unpack(std::uint64_t data) noexcept;

private:
    HugeArray<Bucket> buckets_;  // 2 MiB pages where the kernel grants them (engine/core/huge_pages.hpp)
    std::size_t mask_ = 0;
    std::size_t mib_ = 0;
    unsigned generation_ = 0;
};

// The table key of an Othello position: its hash, with the board's playable squares mixed in so that
// variants never share entries.
[[nodiscard]] inline std::uint64_t othello_tt_key(const Position& pos) noexcept {
    return pos.hash() ^ (pos.playable * 0xd6e8feb86659fd93ULL);
}

}  // namespace reversi
