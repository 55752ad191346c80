#pragma once
// Helpers of the search tests: contexts for each game and the independent references they are checked
// against (plain recursive negamax written here, not the engine's minimax).
#include <algorithm>
#include <vector>

#include "engine/eval/heuristic.hpp"
#include "engine/games/othello_game.hpp"
#include "engine/games/synthetic_tree.hpp"
#include "engine/games/tictactoe.hpp"
#include "engine/search/move_ordering.hpp"
#include "engine/search/run_algorithm.hpp"

namespace reversi::testing {

inline constexpr std::array<Algorithm, 9> kAllAlgorithms = {
    Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::AlphaBetaHard, Algorithm::NegaScout, Algorithm::Scout,
    Algorithm::MtdF,    Algorithm::Sss,       Algorithm::Dual,          Algorithm::CStar};

struct HeuristicCall {
    const HeuristicEvaluator* evaluator;
    int operator()(const OthelloState& s) const noexcept { return evaluator->evaluate(s.pos); }
};
using OthelloCtx = SearchContext<OthelloState, HeuristicCall, OthelloOrder>;

// Games without a horizon evaluation (always searched to the end in the tests).
struct NoEval {
    template <class S>
    int operator()(const S&) const noexcept {
        return 0;
    }
};
template <class S>
using NaturalCtx = SearchContext<S, NoEval, NaturalOrder>;

// Reference: negamax to `depth` plies, a pass consumes no ply, the heuristic at the horizon.
inline int reference_value(const Position& pos, int depth, const HeuristicEvaluator& eval) {
    const Bitboard moves = pos.moves();
    if (!moves) {
        if (!pos.opponent_moves()) return pos.final_score();
        if (depth <= 0) return std::clamp(eval.evaluate(pos), -64, 64);
        return -reference_value(pos.pass(), depth, eval);
    }
    if (depth <= 0) return std::clamp(eval.evaluate(pos), -64, 64);
    int best = -1000;
    for (int sq : squares(moves)) best = std::max(best, -reference_value(pos.play(sq), depth - 1, eval));
    return best;
}

template <GameState S>
int reference_solve(const S& s) {
    MoveList list;
    s.generate_moves(list);
    if (list.empty()) return s.final_score();
    int best = -S::kScoreBound - 1;
    for (Move m : list) best = std::max(best, -reference_solve(s.play(m)));
    return best;
}

// A move the Searcher may answer in `pos`: a legal square, or a pass when the side must pass.
inline bool is_legal(const Position& pos, Move m) {
    if (m == kPass) return pos.must_pass();
    return m < 64 && (pos.moves() & square_bit(m));
}

}  // namespace reversi::testing
