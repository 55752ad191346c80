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

// The squares the normal score weighs: the corners, and the X- and C-squares next to an empty corner.
struct SquareClasses {
    Bitboard corner;
    Bitboard x;
    Bitboard c;
};

SquareClasses square_classes(const Position& pos) noexcept {
    const BoardGeometry g = pos.playable == ~Bitboard{0} ? kFull : board_geometry(pos.playable);
    const Bitboard near_empty_corner = neighbours(g.corners & pos.empties());
    return {g.corners, g.x_squares & near_empty_corner, g.c_squares & near_empty_corner};
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
    if (depth < 2 && order_by_square_class(s, list, tt_move)) return false;
    std::array<int, MoveList::kCapacity> score;  // score[i] is written for every i < list.size()
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

// With fewer than 2 plies left, score_normal's score of a move is 64 * corner - 32 * X - 8 * C (X and C:
// next to an empty corner) or the table move's 1 << 20: one of nine values, set by which of three
// square classes the move is in. The stable sort then only gathers the moves class by class, the
// classes by descending score, each class in the list's order; when that order is ascending (the
// generated order, the table's move anywhere) the list is rebuilt from the classes' bitboards.
bool OthelloOrder::order_by_square_class(const OthelloState& s, MoveList& list, Move tt_move) const noexcept {
    Bitboard moves = 0;
    int last = -1;
    bool has_tt = false;
    for (const Move m : list) {
        if (m == tt_move) {
            has_tt = true;
            continue;
        }
        if (m == kPass || static_cast<int>(m) <= last) return false;  // not ascending: sort
        last = m;
        moves |= square_bit(m);
    }
    const auto [corner, x, c] = square_classes(s.pos);
    // (corner, X, C) by descending 64 * corner - 32 * X - 8 * C: 64, 56, 32, 24, 0, -8, -32, -40.
    const std::array<Bitboard, 8> classes = {corner & ~x & ~c,  corner & ~x & c,  corner & x & ~c,  corner & x & c,
                                             ~corner & ~x & ~c, ~corner & ~x & c, ~corner & x & ~c, ~corner & x & c};
    int n = 0;
    if (has_tt) list[n++] = tt_move;
    for (const Bitboard cls : classes) {
        for (const int sq : squares(moves & cls)) list[n++] = static_cast<Move>(sq);
    }
    return true;
}

void OthelloOrder::score_normal(const OthelloState& s, const MoveList& list, Move tt_move, int depth,
                                std::array<int, MoveList::kCapacity>& score,
                                const TranspositionTable* buckets) const noexcept {
    const Position& pos = s.pos;
    const SquareClasses classes = square_classes(pos);
    for (int i = 0; i < list.size(); ++i) {
        const Move m = list[i];
        score[i] = 0;
        if (m == kPass) continue;
        const Bitboard bit = square_bit(m);
        int v = 0;
        if (bit & classes.corner) v += 64;
        if (bit & classes.x) v -= 32;
        if (bit & classes.c) v -= 8;
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
        const Bitboard replies = child.pos.moves();
        score[i] = -pattern_units(*pattern_, child, replies) - kReplyWeight * popcount(replies);
    }
}

}  // namespace reversi
