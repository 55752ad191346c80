#include "engine/endgame/move_ordering.hpp"

#include <array>
#include <span>

#include "engine/board/moves.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/stability.hpp"
#include "engine/eval/pattern/instance_indices.hpp"

namespace reversi::endgame {

namespace {

constexpr Bitboard kXSquares = 0x4200000000000042ULL;  // b2, g2, b7, g7
constexpr Bitboard kCSquares = 0x4281000000008142ULL;  // b1, g1, a2, h2, a7, h7, b8, g8
constexpr Bitboard kEdges = 0xff818181818181ffULL;

// Squares next to at least one square of `b` (8 directions, no wrap-around).
constexpr Bitboard neighbours(Bitboard b) noexcept {
    const Bitboard h = ((b << 1) & kNotColumnA) | ((b >> 1) & kNotColumnH);
    const Bitboard row = b | h;
    return h | (row << 8) | (row >> 8);
}

}  // namespace

int simple_evaluation(Bitboard P, Bitboard O) noexcept {
    const Bitboard empty = ~(P | O);
    const int mobility = popcount(legal_moves(P, O)) - popcount(legal_moves(O, P));
    const int corners = popcount(P & kCorners) - popcount(O & kCorners);
    // X-squares next to an empty corner are a liability.
    const Bitboard empty_corner_x = kXSquares & (((empty & kCorners) << 9) | ((empty & kCorners) >> 9) |
                                                 ((empty & kCorners) << 7) | ((empty & kCorners) >> 7));
    const int x_squares = popcount(P & empty_corner_x) - popcount(O & empty_corner_x);
    const int edges = popcount(P & kEdges & ~kCSquares) - popcount(O & kEdges & ~kCSquares);
    const int score = 3 * mobility + 10 * corners - 5 * x_squares + edges;
    return score > 64 ? 64 : (score < -64 ? -64 : score);
}

int evaluation_search(Bitboard P, Bitboard O, int depth, int alpha, int beta, std::uint64_t& nodes) noexcept {
    ++nodes;
    if (depth <= 0) return simple_evaluation(P, O);
    const Bitboard moves = legal_moves(P, O);
    if (!moves) {
        if (!legal_moves(O, P)) return final_score(P, popcount(~(P | O)));
        return -evaluation_search(O, P, depth, -beta, -alpha, nodes);
    }
    int best = -kScoreMax - 1;
    for (int sq : squares(moves)) {
        const Bitboard f = flips_from_rays(P, O, sq);
        const int score = -evaluation_search(O ^ f, P ^ f ^ square_bit(sq), depth - 1, -beta, -alpha, nodes);
        if (score > best) {
            best = score;
            if (best > alpha) alpha = best;
            if (alpha >= beta) break;
        }
    }
    return best;
}

namespace {
constexpr int kUnits = eval::kWeightScale;
constexpr int kUnitsInfinity = 1 << 24;

// Stands for the indices where the search extracts them at each leaf instead.
constexpr eval::InstanceIndices kNoIndices{};

eval::InstanceIndices indices_of(Bitboard P, Bitboard O) noexcept {
    Position pos;
    pos.player = P;
    pos.opponent = O;
    return eval::instance_indices(pos);
}
}  // namespace

template <bool Indexed>
int pattern_search_from(const eval::PatternEvaluator& pattern, Bitboard P, Bitboard O,
                        const eval::InstanceIndices& indices, int depth, int alpha, int beta,
                        std::uint64_t& nodes) noexcept {
    ++nodes;
    if (depth <= 0) {
        Position pos;
        pos.player = P;
        pos.opponent = O;
        if constexpr (Indexed) return pattern.evaluate_units(pos, indices, legal_moves(P, O));
        return pattern.evaluate_units(pos);
    }
    const Bitboard moves = legal_moves(P, O);
    if (!moves) {
        if (!legal_moves(O, P)) return kUnits * final_score(P, popcount(~(P | O)));
        return -pattern_search_from<Indexed>(pattern, O, P, Indexed ? eval::after_pass(indices) : kNoIndices, depth,
                                             -beta, -alpha, nodes);
    }
    int best = -kUnitsInfinity;
    std::array<int, 64> order;  // the first n are written
    const int n = class_ordered_squares(moves, order);
    for (int sq : std::span(order.data(), static_cast<std::size_t>(n))) {
        const Bitboard f = flips_from_rays(P, O, sq);
        const int score = -pattern_search_from<Indexed>(pattern, O ^ f, P ^ f ^ square_bit(sq),
                                                        Indexed ? eval::after_move(indices, sq, f) : kNoIndices,
                                                        depth - 1, -beta, -alpha, nodes);
        if (score > best) {
            best = score;
            if (best > alpha) alpha = best;
            if (alpha >= beta) break;
        }
    }
    return best;
}

template int pattern_search_from<true>(const eval::PatternEvaluator&, Bitboard, Bitboard, const eval::InstanceIndices&,
                                       int, int, int, std::uint64_t&) noexcept;
template int pattern_search_from<false>(const eval::PatternEvaluator&, Bitboard, Bitboard, const eval::InstanceIndices&,
                                        int, int, int, std::uint64_t&) noexcept;

int pattern_search(const eval::PatternEvaluator& pattern, Bitboard P, Bitboard O, int depth, int alpha, int beta,
                   std::uint64_t& nodes) noexcept {
    if constexpr (kIndexedOrdering) {
        if (depth > 0) return pattern_search_from<true>(pattern, P, O, indices_of(P, O), depth, alpha, beta, nodes);
    }
    return pattern_search_from<false>(pattern, P, O, kNoIndices, depth, alpha, beta, nodes);
}

void list_moves(EndgameMoveList& list, Bitboard P, Bitboard O, Bitboard moves) noexcept {
    // A local count, set once: the entries' int fields may alias list.size, which a count kept there
    // would read back and write at every move.
    int n = 0;
    for (int sq : squares(moves)) list.moves[static_cast<std::size_t>(n++)] = listed_move(P, O, sq);
    list.size = n;
}

int score_listed_moves(EndgameMoveList& list, int from, Bitboard P, Bitboard O, int empties, Move hash_move,
                       Move second_move, std::uint64_t& nodes, const eval::PatternEvaluator* pattern,
                       int alpha) noexcept {
    // A move whose ordering search proves it kOrderAlphaDelta discs below alpha is searched late whatever
    // its exact value: the child's search stops there (a fail-soft bound).
    const int floor = alpha - kOrderAlphaDelta;
    const int child_beta = floor > -kScoreMax ? -floor * kUnits : kUnitsInfinity;
    const eval::PatternEvaluator* use_pattern = empties >= kPatternOrderEmpties ? pattern : nullptr;
    const Bitboard odd = empties <= 12 ? odd_quadrants(~(P | O)) : 0;
    const int sort_depth = empties >= 18 ? 2 : (empties >= 14 ? 1 : (empties >= 12 ? 0 : -1));
    eval::InstanceIndices indices;
    bool have_indices = false;
    int scored = 0;
    for (int i = from; i < list.size; ++i) {
        EndgameMove& m = list.moves[static_cast<std::size_t>(i)];
        const int sq = m.square;
        if (sq == hash_move) {
            m.score = 1 << 30;
            continue;
        }
        if (sq == second_move) {
            m.score = 1 << 29;
            continue;
        }
        ++scored;
        const Bitboard next_p = O ^ m.flipped;                   // the opponent, to move next
        const Bitboard next_o = P ^ m.flipped ^ square_bit(sq);  // us, after the move
        const Bitboard replies = legal_moves(next_p, next_o);
        m.replies = replies;
        int score = -weighted_mobility(replies) * (1 << 12);
        score -= popcount(neighbours(next_o) & ~(next_p | next_o)) * (1 << 9);
        if (square_bit(sq) & kCorners) score += 1 << 11;
        score += edge_stability(next_o, next_p) * (1 << 8);
        if (square_bit(sq) & odd) score += 1 << 10;
        if (sort_depth >= 0 && use_pattern) {
            // 1/32 disc x (1 << 5): one disc of the shallow search weighs a quarter of one opponent reply.
            // Weighing the pattern search 4 times more (one disc = one reply, the earlier setting) took
            // 1.19 times the nodes on FFO #45-#53 (6.12 G against 5.15 G; docs/endgame.md).
            int units;
            if constexpr (kIndexedOrdering) {
                // The node's indices once, then each child's from its move.
                if (!have_indices) {
                    indices = indices_of(P, O);
                    have_indices = true;
                }
                units =
                    pattern_search_from<true>(*use_pattern, next_p, next_o, eval::after_move(indices, sq, m.flipped),
                                              sort_depth, -kUnitsInfinity, child_beta, nodes);
            } else {
                units = pattern_search_from<false>(*use_pattern, next_p, next_o, kNoIndices, sort_depth,
                                                   -kUnitsInfinity, child_beta, nodes);
            }
            score -= units * (1 << 5);
        } else if (sort_depth >= 0) {
            score -= evaluation_search(next_p, next_o, sort_depth, -kScoreMax, kScoreMax, nodes) * (1 << 12);
        }
        m.score = score;
    }
    return sort_depth < 0 ? scored : 0;
}

int score_moves(EndgameMoveList& list, Bitboard P, Bitboard O, Bitboard moves, int empties, Move hash_move,
                Move second_move, std::uint64_t& nodes, const eval::PatternEvaluator* pattern) noexcept {
    list_moves(list, P, O, moves);
    return score_listed_moves(list, 0, P, O, empties, hash_move, second_move, nodes, pattern);
}

int EndgameMoveList::bring_to_front(Move move) noexcept {
    for (int i = 0; i < size; ++i) {
        if (moves[static_cast<std::size_t>(i)].square == move) {
            if (i != 0) std::swap(moves[0], moves[static_cast<std::size_t>(i)]);
            return 1;
        }
    }
    return 0;
}

}  // namespace reversi::endgame
