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
// Killer and history heuristics are not used: the ordering above already puts a cutoff move first in
// most nodes, and the tests and the comparison tool need the order to depend on the position only.
#include <array>
#include <vector>

#include "engine/eval/heuristic.hpp"
#include "engine/games/othello_game.hpp"
#include "engine/search/search_types.hpp"

namespace reversi {

// The mini-reversi article's fixed order on the diamond boards.
inline constexpr std::array<Move, 20> kDiamondArticleOrder = {11, 12, 25, 30, 33, 38, 51, 52, 18, 21,
                                                              42, 45, 19, 20, 26, 29, 34, 37, 43, 44};

class OthelloOrder {
public:
    explicit OthelloOrder(MoveOrdering mode = MoveOrdering::Normal, const std::vector<Move>& fixed = {});
    void operator()(const OthelloState& s, MoveList& list, Move tt_move, int depth) const noexcept;

private:
    MoveOrdering mode_;
    std::array<int, 65> priority_{};  // Fixed: rank of each square (lower first)
};

}  // namespace reversi
