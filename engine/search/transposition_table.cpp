#include "engine/search/transposition_table.hpp"

#include <algorithm>
#include <bit>
#include <new>

namespace reversi {

namespace {

constexpr std::uint64_t kLowMask22 = (std::uint64_t{1} << 22) - 1;

std::size_t buckets_for(std::size_t mib) noexcept {
    const std::size_t bytes = std::max<std::size_t>(mib, 1) << 20;
    return std::bit_floor(std::max<std::size_t>(bytes / sizeof(TranspositionTable::Bucket), 1));
}

}  // namespace

TranspositionTable::TranspositionTable(std::size_t mib) {
    if (!resize(mib)) {
        // Fall back to the smallest table; a search always has a table to write to.
        buckets_ = make_huge_array<Bucket>(1);
        if (!buckets_) throw std::bad_alloc();  // not even 2 MiB: as std::make_unique would
        mask_ = 0;
        mib_ = 0;
    }
}

bool TranspositionTable::resize(std::size_t mib) {
    const std::size_t count = buckets_for(mib);
    HugeArray<Bucket> fresh = make_huge_array<Bucket>(count);
    if (!fresh) return false;
    buckets_ = std::move(fresh);
    mask_ = count - 1;
    mib_ = std::max<std::size_t>(mib, 1);
    return true;
}

void TranspositionTable::clear() noexcept {
    for (std::size_t b = 0; b <= mask_; ++b) {
        for (auto& e : buckets_[b].entries) {
            e.check.store(0, std::memory_order_relaxed);
            e.data.store(0, std::memory_order_relaxed);
        }
    }
    generation_ = 0;
}

std::uint64_t TranspositionTable::pack(const TTData& d, unsigned generation) noexcept {
    const auto lower = static_cast<std::uint64_t>(std::clamp(d.lower, -kMaxScore, kMaxScore) + kScoreOffset);
    const auto upper = static_cast<std::uint64_t>(std::clamp(d.upper, -kMaxScore, kMaxScore) + kScoreOffset);
    const auto depth = static_cast<std::uint64_t>(std::clamp(d.depth, 0, kMaxDepth));
    return lower | upper << 22 | std::uint64_t{d.move} << 44 | depth << 51 |
           std::uint64_t{generation & kGenerationMask} << 58 | std::uint64_t{d.selective} << 63;
}

TTData TranspositionTable::unpack(std::uint64_t data) noexcept {
    TTData d;
    d.lower = static_cast<int>(data & kLowMask22) - kScoreOffset;
    d.upper = static_cast<int>((data >> 22) & kLowMask22) - kScoreOffset;
    d.move = static_cast<Move>((data >> 44) & 127);
    d.depth = static_cast<int>((data >> 51) & 127);
    d.selective = (data >> 63) != 0;
    return d;
}

bool TranspositionTable::probe(std::uint64_t key, TTData& out) const noexcept {
    const Bucket& bucket = buckets_[key & mask_];
    for (const auto& e : bucket.entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        const std::uint64_t check = e.check.load(std::memory_order_relaxed);
        if ((check ^ data) == key && data != 0) {
            out = unpack(data);
            return true;
        }
    }
    return false;
}

void TranspositionTable::store(std::uint64_t key, int depth, int lower, int upper, Move move, bool selective) noexcept {
    Bucket& bucket = buckets_[key & mask_];
    depth = std::clamp(depth, 0, kMaxDepth);
    Entry* target = nullptr;
    int worst = 1 << 30;
    for (auto& e : bucket.entries) {
        const std::uint64_t data = e.data.load(std::memory_order_relaxed);
        const std::uint64_t check = e.check.load(std::memory_order_relaxed);
        if ((check ^ data) == key && data != 0) {
            const TTData old = unpack(data);
            if (old.depth == depth && old.selective == selective) {  // both bounds hold, keep the tighter ones
                lower = std::max(lower, old.lower);
                upper = std::min(upper, old.upper);
                if (lower > upper) {  // inconsistent (a race or a hash collision): trust the new search
                    lower = std::min(lower, upper);
                    upper = lower;
                }
            } else if (old.depth >= depth && (!old.selective || selective)) {
                return;  // keep the deeper (or equally deep and non-selective) result
            }
            if (move == kNoMove) move = old.move;
            target = &e;
            break;
        }
        const unsigned gen = static_cast<unsigned>(data >> 58) & kGenerationMask;
        const int age = static_cast<int>((generation_ - gen) & kGenerationMask);
        const int worth = data == 0 ? -(1 << 20) : unpack(data).depth - 4 * age;
        if (worth < worst) {
            worst = worth;
            target = &e;
        }
    }
    const std::uint64_t data = pack(TTData{lower, upper, move, depth, selective}, generation_);
    target->data.store(data, std::memory_order_relaxed);
    target->check.store(key ^ data, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const noexcept {
    const std::size_t sample = std::min<std::size_t>(250, mask_ + 1);
    int used = 0;
    for (std::size_t b = 0; b < sample; ++b) {
        for (const auto& e : buckets_[b].entries) {
            const std::uint64_t data = e.data.load(std::memory_order_relaxed);
            if (data != 0 && ((data >> 58) & kGenerationMask) == generation_) ++used;
        }
    }
    return static_cast<int>(used * 1000 / (sample * kEntriesPerBucket));
}

}  // namespace reversi
