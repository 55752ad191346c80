#pragma once
#include <vector>
// One call of a named algorithm at the root of any game: the entry point of the iterative-deepening
// driver (engine/search/searcher.cpp), of the tests and of the comparison tool.
#include "engine/search/algorithms.hpp"
#include "engine/search/mtd.hpp"
#include "engine/search/search_types.hpp"

namespace reversi {

struct RootSearch {
    int value = 0;
    Move best_move = kNoMove;  // kNoMove when no root move was proven best (e.g. a fail-hard fail low)
    bool complete = true;      // false when the search was stopped
    int null_window_searches = 0;
    std::vector<Move> pv;  // filled by the dedicated endgame solver; empty: read the table
    // Below 100: the answer of a stopped dedicated solve, its last finished selective pass (exact_solve.hpp).
    int selectivity = kMaxSelectivityPercent;
    bool wld = false;  // value is only win (+1) / draw (0) / loss (-1) (a timed solve's proven win)
};

// Whether the algorithm takes a window (and so can run inside aspiration windows).
[[nodiscard]] constexpr bool takes_window(Algorithm a) noexcept {
    return a == Algorithm::AlphaBeta || a == Algorithm::AlphaBetaHard || a == Algorithm::NegaScout;
}
// Whether the algorithm reads and writes the transposition table.
[[nodiscard]] constexpr bool uses_table(Algorithm a) noexcept {
    return a != Algorithm::Minimax && a != Algorithm::Scout;
}

// Runs `algorithm` from `root` to `depth` plies. alpha/beta: the window of the window algorithms
// (minimax and scout ignore it; the null-window family always searches the full range); guess: the
// first guess of MTD(f).
template <class Ctx, GameState S>
RootSearch run_algorithm(Algorithm algorithm, Ctx& ctx, const S& root, int depth, int alpha, int beta, int guess) {
    RootSearch r;
    ctx.reset_root();
    switch (algorithm) {
        case Algorithm::Minimax:
            r.value = minimax(ctx, root, depth, 0);
            break;
        case Algorithm::AlphaBeta:
            r.value = alphabeta(ctx, root, depth, alpha, beta, 0);
            break;
        case Algorithm::AlphaBetaHard:
            r.value = alphabeta_hard(ctx, root, depth, alpha, beta, 0);
            break;
        case Algorithm::NegaScout:
            r.value = negascout(ctx, root, depth, alpha, beta, 0);
            break;
        case Algorithm::Scout:
            r.value = scout(ctx, root, depth, 0);
            break;
        case Algorithm::MtdF:
        case Algorithm::Sss:
        case Algorithm::Dual:
        case Algorithm::CStar: {
            Move best = kNoMove;
            NullWindowResult n;
            if (algorithm == Algorithm::CStar) {
                n = cstar(ctx, root, depth, best);
            } else {
                const int f = algorithm == Algorithm::MtdF  ? guess
                              : algorithm == Algorithm::Sss ? Ctx::kInfinity
                                                            : -Ctx::kInfinity;
                n = mtdf(ctx, root, depth, f, best);
            }
            r.value = n.value;
            r.null_window_searches = n.searches;
            r.best_move = best;
            r.complete = n.complete && !ctx.aborted;
            return r;
        }
    }
    r.best_move = ctx.root_best;
    r.complete = !ctx.aborted;
    return r;
}

}  // namespace reversi
