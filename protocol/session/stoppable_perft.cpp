#include "protocol/session/stoppable_perft.hpp"

namespace reversi::session {

namespace {

std::uint64_t count(const Position& pos, int depth, const std::atomic<bool>& stop, bool& aborted) {
    if (depth == 0) return 1;
    const Bitboard moves = pos.moves();
    if (moves == 0) {
        if (pos.opponent_moves() == 0) return 1;  // game over before the horizon: one leaf
        return count(pos.pass(), depth - 1, stop, aborted);
    }
    if (depth == 1) return static_cast<std::uint64_t>(popcount(moves));
    if (depth >= 4 && stop.load(std::memory_order_relaxed)) {
        aborted = true;
        return 0;
    }
    std::uint64_t total = 0;
    for (int sq : squares(moves)) {
        total += count(pos.play(sq), depth - 1, stop, aborted);
        if (aborted) return 0;
    }
    return total;
}

}  // namespace

std::optional<std::uint64_t> stoppable_perft(const Position& pos, int depth, const std::atomic<bool>& stop) {
    bool aborted = false;
    const std::uint64_t n = count(pos, depth, stop, aborted);
    if (aborted) return std::nullopt;
    return n;
}

}  // namespace reversi::session
