#pragma once
// Move ordering for Othello positions (the policy the Searcher hands to the generic algorithms).
//   None     ascending square index (a1, b1, ..., h8), the table's move ignored: textbook counts.
//   Normal   the table's move first; then, with 2 or more plies left, by
//              score = 64 * corner - 32 * (X-square next to an empty corner)
//                      - 8 * (C-square next to an empty corner) - 16 * (replies left to the opponent)
//            (fewest replies first: "mobility" / fastest-first ordering); with fewer plies left the
//            reply count is skipped (the children are leaves, counting their replies costs as much as
//            evaluating them). Ties keep ascending square order.
//   Fixed    a given priority list of squares (the mini-reversi article's order on the diamond
//            boards); squares not in the list come after, in ascending order; the table's move first.
//   Evaluated  the engine's ordering: the table's move first; with kEvaluatedOrderDepth or more plies
//            left, by
//              score = -(trained evaluation of the child, 1/32 disc)
//                      - kReplyWeight * (replies left to the opponent)
//            (the evaluation says which move is good, the reply count keeps the fastest-first bias);
//            closer to the horizon, or without a trained evaluation (other boards), as Normal.
// Killer and history heuristics are not used: the ordering above already puts a cutoff move first in
// most nodes, and the tests and the comparison tool need the order to depend on the position only (a
// history one ply from the horizon saved 2-10 % of the nodes and no time: docs/search.md).
#include <array>
#include <vector>

#include "engine/eval/heuristic.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/games/othello_game.hpp"
#include "engine/search/search_types.hpp"
#include "engine/search/transposition_table.hpp"

namespace reversi {

// The mini-reversi article's fixed order on the diamond boards.
inline constexpr std::array<Move, 20> kDiamondArticleOrder = {11, 12, 25, 30, 33, 38, 51, 52, 18, 21,
                                                              42, 45, 19, 20, 26, 29, 34, 37, 43, 44};

inline constexpr int kEvaluatedOrderDepth = 3;
inline constexpr int kReplyWeight = 24;  // 1/32 disc per opponent reply

// The trained evaluation of s in 1/kWeightScale disc, from the indices s carries when it has them.
[[nodiscard]] inline int pattern_units(const eval::PatternEvaluator& pattern, const OthelloState& s) noexcept {
    return s.indexed ? pattern.evaluate_units(s.pos, s.indices) : pattern.evaluate_units(s.pos);
}
// The same with the side to move's legal moves given (moves == s.pos.moves()).
[[nodiscard]] inline int pattern_units(const eval::PatternEvaluator& pattern, const OthelloState& s,
                                       Bitboard moves) noexcept {
    return s.indexed ? pattern.evaluate_units(s.pos, s.indices, moves) : pattern.evaluate_units(s.pos);
}

class OthelloOrder {
public:
    // `pattern`: the trained evaluation that MoveOrdering::Evaluated orders with (nullptr: as Normal).
    explicit OthelloOrder(MoveOrdering mode = MoveOrdering::Normal, const std::vector<Move>& fixed = {},
                          const eval::PatternEvaluator* pattern = nullptr);
    void operator()(const OthelloState& s, MoveList& list, Move tt_move, int depth) const noexcept {
        (void)(*this)(s, list, tt_move, depth, nullptr);
    }
    // The same, asking `buckets` (may be null) for the table bucket of every child but the table move's
    // that the ordering plays; true when it did so for every such child (the orderings that play them).
    bool operator()(const OthelloState& s, MoveList& list, Move tt_move, int depth,
                    const TranspositionTable* buckets) const noexcept;
    // Whether the order puts the table's move first (every mode but None).
    [[nodiscard]] bool table_move_first() const noexcept { return mode_ != MoveOrdering::None; }

private:
    // The order score_normal and the sort give with fewer than 2 plies left, by square classes; false
    // (the list unchanged) when the list's other moves are not in ascending order.
    bool order_by_square_class(const OthelloState& s, MoveList& list, Move tt_move) const noexcept;
    void score_normal(const OthelloState& s, const MoveList& list, Move tt_move, int depth,
                      std::array<int, MoveList::kCapacity>& score, const TranspositionTable* buckets) const noexcept;
    void score_evaluated(const OthelloState& s, const MoveList& list, Move tt_move,
                         std::array<int, MoveList::kCapacity>& score, const TranspositionTable* buckets) const noexcept;

    MoveOrdering mode_;
    std::array<int, 65> priority_{};  // Fixed: rank of each square (lower first)
    const eval::PatternEvaluator* pattern_ = nullptr;
};

}  // namespace reversi
