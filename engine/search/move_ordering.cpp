#include "engine/search/move_ordering.hpp"

#include <algorithm>

namespace reversi {

namespace {

constexpr BoardGeometry kFull = board_geometry(~Bitboard{0});

void move_to_front(MoveList& list, Move m) noexcept {
    if (m == kNoMove) return;
    auto it = std::find(list.begin(), list.end(), m);
    if (it != list.end()) std::rotate(list.begin(), it, it + 1);
}

}  // namespace

OthelloOrder::OthelloOrder(MoveOrdering mode, const std::vector<Move>& fixed, const eval::PatternEvaluator* pattern)
    : mode_(mode), pattern_(pattern) {
    for (int sq = 0; sq < 65; ++sq) priority_[sq] = 100 + sq;
    for (std::size_t i = 0; i < fixed.size(); ++i) {
        if (fixed[i] < 65) priority_[fixed[i]] = static_cast<int>(i);
    }
}

bool OthelloOrder::operator()(const OthelloState& s, MoveList& list, Move tt_move, int depth,
                              const TranspositionTable* buckets) const noexcept {
    if (mode_ == MoveOrdering::None || list.size() < 2) return false;
    if (mode_ == MoveOrdering::Fixed) {
        std::stable_sort(list.begin(), list.end(), [&](Move a, Move b) { return priority_[a] < priority_[b]; });
        move_to_front(list, tt_move);
        return false;
    }
    std::array<int, MoveList::kCapacity> score{};
    bool prefetched = buckets != nullptr;
    if (mode_ == MoveOrdering::Evaluated && pattern_ != nullptr && depth >= kEvaluatedOrderDepth) {
        score_evaluated(s, list, tt_move, score, buckets);
    } else {
        score_normal(s, list, tt_move, depth, score, buckets);
        prefetched = prefetched && depth >= 2;  // below, score_normal plays no child
    }
    // Insertion sort by descending score (stable: ties keep ascending squares); lists are short.
    for (int i = 1; i < list.size(); ++i) {
        const Move m = list[i];
        const int v = score[i];
        int j = i - 1;
        for (; j >= 0 && score[j] < v; --j) {
            list[j + 1] = list[j];
            score[j + 1] = score[j];
        }
        list[j + 1] = m;
        score[j + 1] = v;
    }
    return prefetched;
}

void OthelloOrder::score_normal(const OthelloState& s, const MoveList& list, Move tt_move, int depth,
                                std::array<int, MoveList::kCapacity>& score,
                                const TranspositionTable* buckets) const noexcept {
    const Position& pos = s.pos;
    const BoardGeometry g = pos.playable == ~Bitboard{0} ? kFull : board_geometry(pos.playable);
    const Bitboard empty_corner_neighbours = neighbours(g.corners & pos.empties());
    for (int i = 0; i < list.size(); ++i) {
        const Move m = list[i];
        if (m == kPass) continue;
        const Bitboard bit = square_bit(m);
        int v = 0;
        if (bit & g.corners) v += 64;
        if (bit & g.x_squares & empty_corner_neighbours) v -= 32;
        if (bit & g.c_squares & empty_corner_neighbours) v -= 8;
        if (depth >= 2) {
            const Position child = pos.play(m);
            if (buckets && m != tt_move) buckets->prefetch(othello_tt_key(child));
            v -= 16 * popcount(child.moves());
        }
        if (m == tt_move) v = 1 << 20;
        score[i] = v;
    }
}

void OthelloOrder::score_evaluated(const OthelloState& s, const MoveList& list, Move tt_move,
                                   std::array<int, MoveList::kCapacity>& score,
                                   const TranspositionTable* buckets) const noexcept {
    for (int i = 0; i < list.size(); ++i) {
        const Move m = list[i];
        if (m == tt_move) {
            score[i] = 1 << 20;
            continue;
        }
        const OthelloState child = s.play(m);
        if (buckets && m != kPass) buckets->prefetch(othello_tt_key(child.pos));
        score[i] = -pattern_units(*pattern_, child) - kReplyWeight * popcount(child.pos.moves());
    }
}

}  // namespace reversi
