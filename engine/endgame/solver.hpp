#pragma once
// The exact endgame solver: the final disc difference (empties to the winner) of a standard 8x8
// position under perfect play, or a win/loss/draw answer with the window (-1, 1).
//
//   EndgameSolver solver(64);                  // transposition table of 64 MiB, shared by its threads
//   auto r = solver.solve(pos, {.threads = 2}, stop);
//   if (r) use(r->score, r->best_move, r->pv);
//
// The solver owns its transposition table (kept between solves: clear() for a new game). solve() runs
// on the caller's thread plus `threads - 1` helper tasks on a worker pool (engine/core/worker_pool.hpp),
// all finished before it returns: the pool given at construction (the Searcher lends its own, sized to
// Threads - 1), else one the solver owns, created at the first solve with threads > 1 and grown to
// `threads - 1` workers when a solve asks for more. A borrowed pool is never resized here: with fewer
// workers than `threads - 1`, the solve simply runs on fewer threads. It takes the
// same limits as the midgame search (SolveLimits: stop flag, deadline, node budget) and checks them itself
// (solve_control.hpp); a stopped solve returns completed = false with the best move found so far (its
// score is then not proven). Progress: each root move's result, the end of each root pass and, when
// nothing else was reported for a second, a periodic report (solve_control.hpp's RootProgress).
// Only the standard board is handled (every square playable, empties counted for the winner): other
// variants are rejected with an error; VariantSolver (variant_solver.hpp) solves them with this table.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"
#include "engine/endgame/endgame_tt.hpp"
#include "engine/endgame/solve_control.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"

namespace reversi {
class WorkerPool;
}

namespace reversi::endgame {

struct SolveOptions {
    int alpha = -64;  // window, in discs; (-1, 1) for win/loss/draw
    int beta = 64;
    int threads = 1;
    bool aspiration = true;  // start the root with a narrow window around a shallow estimate
    // Selective passes (selectivity.hpp) before the exact one, from this many root empties on (needs
    // the pattern evaluation); the last pass is always exact, so they change the cost, never the result.
    bool selective = true;
    int selective_min_empties = 20;
    int probcut_empties = 14;  // fewest empties of a probcut node in a selective pass (>= 10)
    // With threads > 1: principal-variation nodes with at least this many empties are split among the
    // threads after their first move (YBWC along the PV, the root included). Above the root's empties,
    // only the root is split and its other moves start at once (the helpers do not wait for the first).
    int split_empties = 18;
    // With a window wider than (-1, 1): the exact pass is preceded by a win/loss/draw pass (window
    // (-1, 1), about 2.5 times cheaper), whose answer narrows the exact pass and is kept when a stopped
    // solve cannot finish the exact pass (timed play: a proven win is worth more than a guess).
    bool wld_first = false;
    // With wld_first: a win/loss/draw pass at this selectivity level (selectivity.hpp; 0: none) before
    // the exact one. It needs the pattern evaluation; when a stopped solve did not finish the exact
    // win/loss/draw pass, it is the last pass that ran to its end (SolveResult::last_pass).
    int wld_first_level = 0;
    // What a search before the solve found (the Searcher's last midgame iteration), for the root of the
    // side to move: its best move is searched first, ahead of the table's move, and its score centres the
    // aspiration window when the table holds no exact score (instead of a 4-ply estimate). Either may be
    // absent; a move that is not legal at the root is ignored. They change the cost, never the result.
    Move first_move = kNoMove;
    std::optional<int> guess;
};

// A root pass that ran to its end (its window resolved, or a selective pass's re-searches used up).
struct ResolvedPass {
    int level = 0;  // selectivity level (selectivity.hpp); 0: the exact pass
    int score = 0;  // for the side to move, in discs: a selective pass's score is a guess
    Move best_move = kNoMove;
    bool wld_window = false;  // searched with the window (-1, 1): the score is a bound on win, draw or loss
};

struct SolveResult {
    int score = 0;  // exact when bound == Exact; else the fail-soft bound
    Bound bound = Bound::Exact;
    Move best_move = kNoMove;  // kPass when the side to move must pass; kNoMove when the game is over
    std::vector<Move> pv;      // from the transposition table; may stop early
    std::uint64_t nodes = 0;
    std::chrono::milliseconds time{0};
    bool completed = true;       // false when stopped
    int passes = 0;              // root passes run (selective ones, aspiration re-searches and the exact one)
    std::uint64_t probcuts = 0;  // probcut cuts in the selective passes
    // Children that the fast move ordering scored without entering them (at 7-11 empties): not nodes
    // here, as in Egaroucid's count, where Edax 4.6 counts each as a node (COUNT_NODES 7).
    // nodes + scored_children is the count that compares with Edax's.
    std::uint64_t scored_children = 0;
    std::uint64_t splits = 0;  // split points offered to an idle thread (two or more threads; split_point.hpp)
    // The last pass that ran to its end: in a stopped solve, what its finished selective passes found.
    std::optional<ResolvedPass> last_pass;
    // With SolveOptions::wld_first, the win/loss/draw pass when it finished: its score is a bound (>= 1:
    // a win, <= -1: a loss) or 0 (a draw, the exact score), best_move a move that achieves it (for a loss,
    // only the move with the highest bound).
    std::optional<ResolvedPass> wld_pass;
};

class EndgameSolver {
public:
    // `pool`: the worker pool to borrow (it must outlive the solver); null: the solver owns one.
    explicit EndgameSolver(std::size_t hash_mib = 64, WorkerPool* pool = nullptr);
    ~EndgameSolver();
    EndgameSolver(const EndgameSolver&) = delete;
    EndgameSolver& operator=(const EndgameSolver&) = delete;

    [[nodiscard]] bool set_hash_size(std::size_t mib) { return tt_.resize(mib); }
    [[nodiscard]] std::size_t hash_size() const noexcept { return tt_.size_mib(); }
    void clear() noexcept { tt_.clear(); }
    [[nodiscard]] int hashfull() const noexcept { return tt_.hashfull(); }
    // The table, lent to the variant solver (variant_solver.hpp) for the other boards.
    [[nodiscard]] EndgameTT& table() noexcept { return tt_; }

    // Errors: a variant board or the disc-difference rule; an empty or reversed window; threads < 1.
    [[nodiscard]] Expected<SolveResult> solve(const Position& pos, const SolveOptions& options,
                                              const SolveLimits& limits, const ProgressCallback& progress = {});
    // The same with only a stop flag.
    [[nodiscard]] Expected<SolveResult> solve(const Position& pos, const SolveOptions& options,
                                              const std::atomic<bool>& stop, const ProgressCallback& progress = {}) {
        return solve(pos, options, SolveLimits{&stop, std::nullopt, std::nullopt}, progress);
    }

    // The pattern evaluation used for move ordering at many empties (null if it failed to load).
    [[nodiscard]] const eval::PatternEvaluator* pattern() const noexcept { return pattern_.get(); }
    // Null: order with the simple evaluation only (for measurements and tests).
    void set_pattern(std::shared_ptr<const eval::PatternEvaluator> pattern) noexcept { pattern_ = std::move(pattern); }

private:
    WorkerPool& worker_pool(int threads);

    EndgameTT tt_;
    WorkerPool* borrowed_pool_ = nullptr;
    std::unique_ptr<WorkerPool> own_pool_;
    std::shared_ptr<const eval::PatternEvaluator> pattern_;
};

}  // namespace reversi::endgame
