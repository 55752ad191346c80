#pragma once
// The Searcher's bridge to the dedicated endgame solver (engine/endgame/solver.hpp). The solver takes the
// search's own limits (stop flag, deadline, what is left of the node budget) and checks them itself; its
// progress comes back as the search's IterationReports (solve_progress.hpp says which).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/endgame/solver.hpp"
#include "engine/search/search_types.hpp"

namespace reversi {

// The dedicated solver is used for exact (and WLD) solves in the engine's own configuration: negascout
// with the table and normal ordering, one line, every root move, on every variant (the 8x8 board and rule
// through EndgameSolver, the others through endgame::VariantSolver with its table). Textbook
// configurations (another algorithm, TT off, ordering none/fixed, MultiPV) keep the generic search so
// that their node counts stay those of the algorithm; so does SearchOptions::dedicated_endgame = false.
[[nodiscard]] bool endgame_solver_applies(const Position& pos, const SearchOptions& options,
                                          bool all_root_moves) noexcept;

struct ExactSolveRequest {
    bool wld = false;
    // Timed play: a win/loss/draw pass before the exact one (endgame::SolveOptions::wld_first); when the
    // exact pass is stopped after it proved a win, the solve answers with the winning move (wld = true).
    bool wld_first = false;
    // The last midgame iteration's best move and score (endgame::SolveOptions::first_move and guess).
    Move first_move = kNoMove;
    std::optional<int> guess;
    int threads = 1;
    endgame::SolveLimits limits;
    // Progress during the solve (root moves proved, passes ended, a periodic report), from the solver's
    // threads one call at a time; empty: none. Its node counts and times start at the two fields below.
    std::function<void(const IterationReport&)> on_report;
    std::uint64_t nodes_before = 0;                      // the search's nodes before the solve
    std::chrono::steady_clock::time_point search_start;  // the search's start
    int hashfull = 0;                                    // per mille, for the reports
};

// A stopped exact solve whose selective passes finished at kUsableSelectivityPercent or more gives the
// last of them as its answer (a search that reaches the end of the game with few, confident probcuts is
// better informed than the midgame iteration before it, whose move the Searcher would keep otherwise).
inline constexpr int kUsableSelectivityPercent = 87;

// Timed play from this many empties: before the exact win/loss/draw pass, one at the selectivity level
// kTimedWldLevel (87 %, engine/endgame/selectivity.hpp). When the exact one cannot finish in time, the
// selective pass's move is played where it found a probable win or draw (a probable loss keeps the midgame
// move). On 1,200 game positions at 19-24 empties replayed at the clock the engine had in the games
// (tools/scripts/band-replay.py, docs/eval.md "The band's points, move by move"): 52.0-53.0 game points
// given away without it, 46.0-46.5 with it, at the same time per move; the 68 % and 95 % levels 50.5.
inline constexpr int kTimedWldEmpties = 19;
inline constexpr int kTimedWldLevel = 3;

struct ExactSolveOutcome {
    int value = 0;  // exact score, or -1/0/+1 with wld
    Move best_move = kNoMove;
    bool complete = false;
    bool wld = false;  // value is only +1/0/-1: a wld request, or a win proven by wld_first
    std::vector<Move> pv;
    std::uint64_t nodes = 0;
    // Not complete, not wld: the last selective pass that finished at kUsableSelectivityPercent or more
    // (value and best_move are then its score and move, selectivity its percent); 100 otherwise.
    int selectivity = kMaxSelectivityPercent;
};

[[nodiscard]] ExactSolveOutcome run_endgame_solver(endgame::EndgameSolver& solver, const Position& pos,
                                                   const ExactSolveRequest& request);

}  // namespace reversi
