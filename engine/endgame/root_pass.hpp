#pragma once
// One pass of the exact solver over a node's moves with one window, on all the solve's threads: the
// root's passes (solver.cpp) and, below the root, the YBWC splits along the principal variation.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "engine/board/bitboard.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/endgame_tt.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/search_worker.hpp"
#include "engine/endgame/solve_control.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"

namespace reversi {
class WorkerPool;
}

namespace reversi::endgame {

struct RootMove {
    int square = 0;
    Bitboard next_p = 0;  // the position after the move, opponent to move
    Bitboard next_o = 0;
};

// The scored moves of `list` (P to move), best first.
[[nodiscard]] std::vector<RootMove> sorted_children(EndgameMoveList& list, Bitboard P, Bitboard O);

// One pass over the root moves with the window (alpha, beta): the first move by the calling thread with
// the full window, the others split among all threads (null window against the best score so far, then
// a re-search when it fails high): YBWC at the root, every thread sharing the transposition table.
// The helpers are `threads - 1` tasks on the solver's worker pool. Only the calling thread opens splits
// (pv_node, recursively, before this pass's helpers are queued), so a pass never has more than
// `threads - 1` tasks outstanding, and a helper that no worker has started when the calling thread is
// done is run by it at the join (TaskGroup::wait) and finds no move left: no split waits for a free worker.
// A thread with no move left (a helper, or the caller at the join) does not sit idle: it takes moves that
// the threads still searching offer from anywhere in their trees (split_point.hpp) until the pass is over.
class RootPass {
public:
    // `split_empties`: see SolveOptions::split_empties. When the position after a pass's first move has
    // that many empties, the pass is a YBWC split: the first move is searched first (itself split the same
    // way, recursively), then the helpers start on the others.
    // `reports`: this pass is the root's (its moves are reported through the control); nested splits are not.
    // `board`: the solve's split points (split_point.hpp), null with one thread.
    RootPass(EndgameTT& tt, SolveControl& control, WorkerPool& pool, SplitBoard* board, int threads, bool reports,
             std::uint64_t nodes_before, const eval::PatternEvaluator* pattern, int selectivity_level,
             int probcut_empties, int split_empties)
        : tt_(tt),
          control_(control),
          pool_(pool),
          board_(board),
          pattern_(pattern),
          threads_(threads),
          selectivity_level_(selectivity_level),
          probcut_empties_(probcut_empties),
          split_empties_(split_empties),
          reports_(reports),
          nodes_before_(nodes_before) {}

    struct Outcome {
        int score = -kInfinity;
        int best_index = 0;
        WorkerCounts counts;  // all threads'
        bool aborted = false;
    };

    // The pass over `moves` (best first, not empty) with the window (alpha, beta).
    Outcome run(const std::vector<RootMove>& moves, int alpha, int beta);

private:
    // A worker of this pass: its selectivity, probcut depth and split points.
    SearchWorker pass_worker();
    // A helper thread's part of the pass: the root moves it takes, then help at the split points of the
    // threads still searching until the pass is over; its counts and whether it was stopped.
    void help_pass(WorkerCounts& counts, char& aborted);
    // A principal-variation node below the pass's first move (P to move, window (alpha, beta)), searched
    // by the calling thread's worker `w` or, from split_empties_ on, as a YBWC split of its own among all
    // the threads (its first move recursively, then the others shared). Sets `aborted` when stopped; the
    // value is fail-soft like SearchWorker::search and is stored in the table like a searched node.
    int pv_node(SearchWorker& w, Bitboard P, Bitboard O, int alpha, int beta, bool& aborted);
    // Takes the next unsearched move and proves it worse than the best score so far (null window), or
    // re-searches it with the window (best, beta) when it fails high against the current best.
    void split_loop(SearchWorker& w);
    // Every thread is done with its moves (or the pass is cut or stopped).
    [[nodiscard]] bool pass_over() const noexcept;
    int current_alpha();
    void record(int index, int score);

    EndgameTT& tt_;
    SolveControl& control_;
    WorkerPool& pool_;
    SplitBoard* board_;
    const eval::PatternEvaluator* pattern_;
    std::atomic<bool> cutoff_{false};
    // Threads still searching this pass's moves: the caller from the start, a helper task once it runs (a
    // helper that starts after the caller is done finds no move left). Sequentially consistent: a helper
    // counts itself busy before it counts itself started.
    std::atomic<int> busy_{1};
    std::atomic<int> started_{0};  // helper tasks that have started
    int threads_;
    int selectivity_level_;
    int probcut_empties_;
    int split_empties_;
    bool reports_;
    std::uint64_t nodes_before_;
    std::atomic<std::uint64_t> nodes_done_{0};
    const std::vector<RootMove>* moves_ = nullptr;
    int alpha_ = -kInfinity;
    int beta_ = kInfinity;
    std::atomic<int> next_{1};
    std::mutex mutex_;
    Outcome outcome_;
    std::atomic<bool> beta_cut_{false};
};

}  // namespace reversi::endgame
