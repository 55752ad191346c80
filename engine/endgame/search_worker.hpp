#pragma once
// One thread's exact search: fail-soft PVS with null windows, sharing the transposition table.
//   empties <= 4          solve_small (last_empties.hpp): no move list, no hashing
//   5 .. kShallowEmpties  shallow search: no hashing, parity ordering (odd quadrants first)
//   above                 ordered search: fastest-first, and from kHashEmpties on TT bounds and moves, stability
//   cutoff, enhanced transposition
//                         cutoff (kEtcEmpties and above), fastest-first / shallow-search move ordering
// With a selectivity level > 0 (selectivity.hpp) the worker probcuts at set_probcut_empties() and more
// (needs the pattern evaluation) and stores its bounds with that level; level 0 (the default) is exact.
// The solve's limits (solve_control.hpp) are checked at every hashed node: halted() with a relaxed load,
// and every SolveControl::kPollNodes nodes the worker charges its nodes (node budget, deadline, periodic
// progress). After a stop the results are meaningless and aborted() is true (nothing more is stored).
#include <atomic>
#include <cstdint>
#include <thread>

#include "engine/board/bitboard.hpp"
#include "engine/endgame/endgame_tt.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/endgame/solve_control.hpp"
#include "engine/endgame/split_point.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"

namespace reversi::endgame {

// From 7 empties on the ordered search pays: on FFO #40-#47 it searched 20 % fewer nodes than the
// parity-ordered shallow search at 7 empties, in 7 % less time (docs/endgame.md, 2026-11-26).
inline constexpr int kShallowEmpties = 6;
inline constexpr int kHashEmpties = 8;  // below: fastest-first ordering but no table probes
// Null-window nodes from this many empties probe all their children before searching (enhanced
// transposition cutoff). From 9 rather than 12 since the fifty-second session: the children of the 9-12
// empties nodes live in the table's near part (endgame_tt.hpp), and FFO #40-#47 took 4.1 % fewer nodes
// in the same time (docs/endgame.md, "The enhanced transposition cutoff from 9 empties").
inline constexpr int kEtcEmpties = 9;
static_assert(kEtcEmpties > kHashEmpties, "the ETC's children must be hashed positions");
// Fewest empties of a node whose remaining moves are offered to an idle thread (split_point.hpp).
inline constexpr int kSplitEmpties = 12;

class SearchWorker {
public:
    // `control` holds the solve's limits; `cutoff` (may be null) is the root's "this search is no longer
    // needed". `pattern` (may be null: simple evaluation only) orders moves at many empties; it must outlive
    // the worker.
    SearchWorker(EndgameTT& tt, SolveControl& control, const std::atomic<bool>* cutoff = nullptr,
                 const eval::PatternEvaluator* pattern = nullptr) noexcept
        : tt_(tt), control_(control), cutoff_(cutoff), pattern_(pattern) {}

    // Exact value within the window: fail-soft, so a result <= alpha is an upper bound and >= beta a
    // lower bound on the true score.
    [[nodiscard]] int search(Bitboard P, Bitboard O, int alpha, int beta);
    // Null-window (alpha, alpha + 1) search.
    [[nodiscard]] int null_window(Bitboard P, Bitboard O, int alpha);

    [[nodiscard]] std::uint64_t nodes() const noexcept { return nodes_; }
    void add_nodes(std::uint64_t n) noexcept { nodes_ += n; }
    // Adds what other workers counted, their nodes already charged to the control (a nested split's).
    void add_charged(const WorkerCounts& c) noexcept {
        nodes_ += c.nodes;
        charged_ += c.nodes;
        probcuts_ += c.probcuts;
        scored_children_ += c.scored_children;
    }
    [[nodiscard]] bool aborted() const noexcept { return aborted_; }
    [[nodiscard]] EndgameTT& tt() noexcept { return tt_; }
    // 0 = exact (default) .. kMaxSelectivityLevel.
    void set_selectivity_level(int level) noexcept { selectivity_level_ = level; }
    // Fewest empties of a probcut node (never below kProbCutMinEmpties).
    void set_probcut_empties(int empties) noexcept {
        probcut_empties_ = empties < kProbCutMinEmpties ? kProbCutMinEmpties : empties;
    }
    [[nodiscard]] int selectivity_level() const noexcept { return selectivity_level_; }
    // Nodes, probcut cuts (selective levels only) and the children the fast ordering scored without
    // entering them (score_listed_moves: not in nodes()), nested splits' included.
    [[nodiscard]] WorkerCounts counts() const noexcept { return {nodes_, probcuts_, scored_children_}; }
    void add_scored_children(std::uint64_t n) noexcept { scored_children_ += n; }

    // The solve's split points (null: this worker never offers its moves, the one-thread search).
    void set_split_board(SplitBoard* board) noexcept { board_ = board; }
    // Waits until done() (polled between helps) while helping on the open split points with fewer than
    // max_empties empties. Needs a split board.
    template <class Done>
    void wait_helping(int max_empties, Done&& done);

private:
    // `moves`: P's legal moves when the caller has them (from the parent's ordering), else kUnknownMoves.
    template <bool Pv>
    int hashed(Bitboard P, Bitboard O, int alpha, int beta, int empties, Bitboard moves = kUnknownMoves);
    // The table's moves for a hashed node's ordering (kNoMove when it has none).
    struct TableMoves {
        Move first = kNoMove;
        Move second = kNoMove;
    };
    // The window of a hashed node's move loop (alpha rises with the best score) and its best so far.
    struct NodeWindow {
        int alpha;
        int beta;
        int best = -kInfinity;
        Move best_move = kNoMove;
    };
    // hashed's moves, after its cuts and its pass: listed, the ETC tried, searched; the bound stored.
    template <bool Pv>
    int search_moves(Bitboard P, Bitboard O, int alpha, int beta, int empties, Bitboard moves, std::uint64_t key,
                     int level, TableMoves table);
    void prefetch_children(const EndgameMoveList& list, int from, Bitboard P, Bitboard O, int empties) const noexcept;
    // True, with `score`, when a child's stored upper bound refutes it (the cut is stored for the node).
    bool etc_cut(const EndgameMoveList& list, Bitboard P, Bitboard O, std::uint64_t key, int empties, int beta,
                 int level, int& score);
    template <bool Pv>
    bool search_listed(const EndgameMoveList& list, int i, Bitboard P, Bitboard O, int empties, NodeWindow& w);
    template <bool Pv>
    void search_ordered(EndgameMoveList& list, int first, Bitboard P, Bitboard O, int empties, TableMoves table,
                        NodeWindow& w);
    int shallow(Bitboard P, Bitboard O, int alpha, int beta, int empties, Bitboard moves = kUnknownMoves);
    int dispatch_pv(Bitboard P, Bitboard O, int alpha, int beta, int empties, Bitboard moves = kUnknownMoves);
    int dispatch_nws(Bitboard P, Bitboard O, int alpha, int empties, Bitboard moves = kUnknownMoves);
    // Probcut test of a selective pass: true and `score` set (beta or alpha) when the prediction of the
    // shallow pattern search falls outside (alpha, beta) by the level's margin.
    bool probcut(Bitboard P, Bitboard O, int alpha, int beta, int empties, int& score);
    // True when the search must stop: the solve is halted or the root no longer needs this search.
    bool must_stop();
    // Offers list.moves[from ..] of the node to the idle threads and searches them with them; `best`
    // and `best_move` (the node's so far) are updated; true on a cutoff.
    template <bool Pv>
    bool split(EndgameMoveList& list, int from, Bitboard P, Bitboard O, int alpha, int beta, int empties, int& best,
               Move& best_move);
    // Searches the split point's move `index` (PVS at a principal-variation node) and merges its score.
    void search_split_move(SplitPoint& sp, int index);
    // Searches moves of `sp` on this thread with a worker of its own, until none is left.
    void help(SplitPoint& sp);

    EndgameTT& tt_;
    SolveControl& control_;
    const std::atomic<bool>* cutoff_;
    const eval::PatternEvaluator* pattern_;
    std::uint64_t nodes_ = 0;
    std::uint64_t charged_ = 0;  // nodes_ already added to control_
    std::uint64_t probcuts_ = 0;
    std::uint64_t scored_children_ = 0;
    int selectivity_level_ = 0;
    int probcut_empties_ = kDefaultProbCutEmpties;
    SplitBoard* board_ = nullptr;
    bool aborted_ = false;
};

template <class Done>
void SearchWorker::wait_helping(int max_empties, Done&& done) {
    for (;;) {
        SplitPoint* sp = nullptr;
        {
            SplitBoard::Idle idle(*board_);
            while (!done()) {
                sp = board_->enter(max_empties);
                if (sp) break;
                std::this_thread::yield();
            }
        }
        if (!sp) return;
        help(*sp);
    }
}

// Stability cutoff threshold of the hashed nodes: the bound is only computed when alpha reaches this
// value (the shallow nodes and solve_4 test whenever the cut is possible: stability_cutoff).
[[nodiscard]] int stability_threshold(int empties) noexcept;

}  // namespace reversi::endgame
