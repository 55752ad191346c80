#include "engine/endgame/endgame_tt.hpp"

#include <algorithm>
#include <bit>
#include <new>

namespace reversi::endgame {

namespace {

constexpr int lower_of(std::uint64_t d) noexcept { return static_cast<std::int8_t>(d & 0xff); }
constexpr int upper_of(std::uint64_t d) noexcept { return static_cast<std::int8_t>((d >> 8) & 0xff); }
constexpr Move move_of(std::uint64_t d) noexcept { return static_cast<Move>((d >> 16) & 0xff); }
constexpr Move second_of(std::uint64_t d) noexcept { return static_cast<Move>((d >> 24) & 0xff); }
constexpr int empties_of(std::uint64_t d) noexcept { return static_cast<int>((d >> 32) & 0xff); }
constexpr std::uint8_t generation_of(std::uint64_t d) noexcept { return static_cast<std::uint8_t>((d >> 40) & 0xff); }
constexpr int cost_of(std::uint64_t d) noexcept { return static_cast<int>((d >> 48) & 0xff); }
constexpr int selectivity_of(std::uint64_t d) noexcept { return static_cast<int>((d >> 56) & 0xff); }

std::size_t buckets_for(std::size_t mib) noexcept {
    const std::size_t bytes = mib * 1024 * 1024;
    std::size_t n = bytes / sizeof(EndgameTT::Bucket);
    if (n < 1) n = 1;
    return std::bit_floor(n);
}

}  // namespace

EndgameTT::EndgameTT(std::size_t mib) {
    if (!resize(mib)) (void)resize(1);
}

bool EndgameTT::resize(std::size_t mib) {
    const std::size_t n = buckets_for(mib);
    HugeArray<Bucket> fresh = make_huge_array<Bucket>(n);
    if (!fresh) return false;
    buckets_ = std::move(fresh);
    mask_ = n - 1;
    near_mask_ = std::min(n, buckets_for(kNearMiB)) - 1;
    mib_ = mib;
    clear();
    return true;
}

void EndgameTT::clear() noexcept {
    for (std::size_t i = 0; i <= mask_; ++i) {
        for (auto& e : buckets_[i].entries) {
            e.check.store(0, std::memory_order_relaxed);
            e.data.store(0, std::memory_order_relaxed);
        }
    }
    generation_ = 0;
}

std::uint64_t EndgameTT::pack(int lower, int upper, Move move, Move second, int empties, std::uint8_t generation,
                              int cost, int selectivity_level) noexcept {
    return static_cast<std::uint64_t>(static_cast<std::uint8_t>(lower)) |
           static_cast<std::uint64_t>(static_cast<std::uint8_t>(upper)) << 8 | static_cast<std::uint64_t>(move) << 16 |
           static_cast<std::uint64_t>(second) << 24 | static_cast<std::uint64_t>(empties & 0xff) << 32 |
           static_cast<std::uint64_t>(generation) << 40 | static_cast<std::uint64_t>(cost & 0xff) << 48 |
           static_cast<std::uint64_t>(selectivity_level & 0xff) << 56;
}

bool EndgameTT::probe(std::uint64_t key, int empties, EndgameTTData& out) const noexcept {
    const Bucket& b = bucket(key, empties);
    for (const auto& e : b.entries) {
        const std::uint64_t d = e.data.load(std::memory_order_relaxed);
        if ((e.check.load(std::memory_order_relaxed) ^ d) == key && d != 0) {
            out.lower = lower_of(d);
            out.upper = upper_of(d);
            out.move = move_of(d);
            out.second = second_of(d);
            out.empties = empties_of(d);
            out.selectivity_level = selectivity_of(d);
            return true;
        }
    }
    return false;
}

void EndgameTT::store(std::uint64_t key, int empties, int lower, int upper, Move move, std::uint64_t nodes,
                      int selectivity_level) noexcept {
    Bucket& b = bucket(key, empties);
    const int cost = std::bit_width(nodes);
    Entry* victim = nullptr;
    int victim_priority = 1 << 30;
    for (auto& e : b.entries) {
        const std::uint64_t d = e.data.load(std::memory_order_relaxed);
        if ((e.check.load(std::memory_order_relaxed) ^ d) == key && d != 0) {
            // Same position: merge the bounds of the same level, keep the more exact ones otherwise; the
            // previous best move becomes the second move.
            const int old_level = selectivity_of(d);
            int lo = lower;
            int up = upper;
            int level = selectivity_level;
            if (old_level == selectivity_level) {
                lo = lower_of(d) > lower ? lower_of(d) : lower;
                up = upper_of(d) < upper ? upper_of(d) : upper;
                if (lo > up) {  // exact bounds: only a torn entry; selective ones may conflict: trust the new one
                    lo = lower;
                    up = upper;
                }
            } else if (old_level < selectivity_level) {  // the entry is more exact: keep its bounds
                lo = lower_of(d);
                up = upper_of(d);
                level = old_level;
            }
            Move m = move_of(d);
            Move second = second_of(d);
            if (move != kNoMove && move != m) {
                second = m;
                m = move;
            }
            const int c = cost > cost_of(d) ? cost : cost_of(d);
            const std::uint64_t nd = pack(lo, up, m, second, empties, generation_, c, level);
            e.data.store(nd, std::memory_order_relaxed);
            e.check.store(key ^ nd, std::memory_order_relaxed);
            return;
        }
        // Replace old generations first, then the cheapest (fewest empties, fewest nodes) entry.
        const int priority = (generation_of(d) == generation_ ? 1 << 16 : 0) + empties_of(d) * 256 + cost_of(d);
        if (priority < victim_priority) {
            victim_priority = priority;
            victim = &e;
        }
    }
    const std::uint64_t nd = pack(lower, upper, move, kNoMove, empties, generation_, cost, selectivity_level);
    victim->data.store(nd, std::memory_order_relaxed);
    victim->check.store(key ^ nd, std::memory_order_relaxed);
}

int EndgameTT::hashfull() const noexcept {
    const std::size_t n = mask_ + 1 < 250 ? mask_ + 1 : 250;
    const std::size_t stride = (mask_ + 1) / n;  // spread over the whole table, not only its near part
    int used = 0;
    for (std::size_t i = 0; i < n; ++i) {
        for (const auto& e : buckets_[i * stride].entries) {
            const std::uint64_t d = e.data.load(std::memory_order_relaxed);
            if (d != 0 && generation_of(d) == generation_) ++used;
        }
    }
    return static_cast<int>(1000 * used / static_cast<int>(n * kWays));
}

}  // namespace reversi::endgame
