#pragma once
// The state one search thread carries through the generic algorithms (engine/search/algorithms.hpp):
// the evaluator and move-ordering callables, the transposition table (or none), the counters, the
// limits and the root bookkeeping. Generic over the game (engine/games/game.hpp).
//
// Counting rules (the same for every algorithm, so their figures compare):
//   nodes   every position an algorithm enters, the root and positions after a pass included, also
//           when the node is answered from the transposition table;
//   leaves  every position that is scored without looking at its children: at the horizon (evaluator)
//           or at the end of the game (exact final score; a position where neither side can move is
//           one leaf).
// Depth: a move consumes one ply, a pass consumes none, so that depth >= empties reaches the end of
// the game in Othello (tic-tac-toe and the synthetic trees have no passes).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/games/game.hpp"
#include "engine/games/othello_game.hpp"
#include "engine/search/transposition_table.hpp"

namespace reversi {

// The transposition-table key of a state. Othello positions mix in the board's playable squares so
// that variants never share entries.
template <GameState S>
[[nodiscard]] std::uint64_t tt_key(const S& s) noexcept {
    return s.hash();
}
template <>
[[nodiscard]] inline std::uint64_t tt_key(const OthelloState& s) noexcept {
    return othello_tt_key(s.pos);
}

[[nodiscard]] constexpr int child_depth(int depth, Move m) noexcept { return m == kPass ? depth : depth - 1; }

// Eval: int(const S&), the score of a position at the horizon that is not over, within kScoreBound.
// Order: void(const S&, MoveList&, Move tt_move, int depth), reorders the generated moves in place.
template <GameState S, class Eval, class Order>
struct SearchContext {
    using State = S;
    using Clock = std::chrono::steady_clock;
    static constexpr int kInfinity = S::kScoreBound + 1;  // strictly outside every score

    SearchContext(Eval e, Order o, TranspositionTable* table = nullptr, const std::atomic<bool>* stop_flag = nullptr)
        : evaluate(std::move(e)), order(std::move(o)), tt(table), stop(stop_flag) {}

    Eval evaluate;
    Order order;
    TranspositionTable* tt = nullptr;         // nullptr: no table
    const std::atomic<bool>* stop = nullptr;  // polled with relaxed loads
    std::uint64_t node_limit = std::numeric_limits<std::uint64_t>::max();
    Clock::time_point deadline = Clock::time_point::max();

    std::uint64_t nodes = 0;
    std::uint64_t leaves = 0;
    bool aborted = false;
    int max_ply = 0;  // selective depth
    // The running search makes selective (Multi-ProbCut) cuts: its table entries are stored with the
    // selective flag, and it may take cutoffs from selective entries. A non-selective search (false, the
    // textbook algorithms and every exact solve) only takes cutoffs from non-selective entries.
    bool selective = false;

    std::vector<Move> root_moves;  // moves allowed at the root (empty: all)
    Move root_best = kNoMove;      // best root move of the running search, as the algorithms see it

    // Restricts the root to `allowed`, some of its legal moves (`legal_count` in all). A root searched over
    // some of its moves only (go searchmoves, MultiPV's later lines, NBoard hints) has a value that is not
    // its position's: it is never stored, or a later search from an earlier position of the game, which
    // reaches this one below its root, would take that value as the position's (after `go depth 6
    // searchmoves c7` on f5 d6, `go depth 7` on f5 scored +13 and played d6 where it scores +3 and plays f6).
    void restrict_root(const S& root, std::vector<Move> allowed, std::size_t legal_count) {
        root_moves = std::move(allowed);
        restricted_root_key_ = root_moves.size() < legal_count ? std::optional(tt_key(root)) : std::nullopt;
    }

    // Counts the node; true when the search must stop (then the caller returns at once).
    bool enter(int ply) noexcept {
        ++nodes;
        max_ply = std::max(max_ply, ply);
        if (aborted) return true;
        if (nodes >= node_limit) aborted = true;
        if ((nodes & 1023) == 0) {
            if (stop && stop->load(std::memory_order_relaxed)) aborted = true;
            if (deadline != Clock::time_point::max() && Clock::now() >= deadline) aborted = true;
        }
        return aborted;
    }

    int final_leaf(const S& s) noexcept {
        ++leaves;
        return s.final_score();
    }
    int horizon_leaf(const S& s) noexcept {
        ++leaves;
        return clamp_score(static_cast<int>(evaluate(s)));
    }
    // The same for an Othello state whose side to move has the legal moves `moves`: an evaluation that
    // takes them does not compute them again.
    int horizon_leaf(const S& s, Bitboard moves) noexcept {
        if constexpr (requires { evaluate(s, moves); }) {
            ++leaves;
            return clamp_score(static_cast<int>(evaluate(s, moves)));
        } else {
            return horizon_leaf(s);
        }
    }
    static int clamp_score(int value) noexcept { return std::clamp(value, -S::kScoreBound, S::kScoreBound); }

    // Restricts the root moves (ply 0) and orders the list. With 2 or more plies left (children that
    // will probe the table), asks the memory for every child's table bucket but the table move's
    // (searched already): the misses overlap with each other and with the ordering's work instead of
    // stalling each child's probe in turn (time to depth 16 on 60 match positions -11 %, the same
    // nodes). The Othello ordering asks as it plays each child for its score; other orders are
    // followed by a loop that plays the children for their keys.
    void prepare_moves(const S& s, MoveList& list, int ply, Move tt_move, int depth) {
        if (ply == 0 && !root_moves.empty()) {
            MoveList kept;
            for (Move m : list) {
                if (std::find(root_moves.begin(), root_moves.end(), m) != root_moves.end()) kept.push_back(m);
            }
            list = kept;
        }
        if constexpr (std::is_same_v<S, OthelloState>) {
            const TranspositionTable* buckets = tt && depth >= 2 ? tt : nullptr;
            bool asked = false;  // by the ordering, which plays the children anyway (OthelloOrder)
            if constexpr (requires { order(s, list, tt_move, depth, buckets); }) {
                asked = order(s, list, tt_move, depth, buckets);
            } else {
                order(s, list, tt_move, depth);
            }
            if (buckets && !asked) {
                for (Move m : list) {
                    if (m != tt_move && m != kPass) buckets->prefetch(othello_tt_key(s.pos.play(m)));
                }
            }
        } else {
            order(s, list, tt_move, depth);
        }
    }

    // At the root, records the move whose value is the best so far.
    void note_best(int ply, Move m) noexcept {
        if (ply == 0) root_best = m;
    }
    void reset_root() noexcept { root_best = kNoMove; }

    // Transposition table. The root (ply 0) never takes a cutoff, so that it always yields a move.
    // A bound is used when it was computed for at least `depth` remaining plies, and, for a
    // non-selective search, by a non-selective one (the move of any entry orders the moves).
    bool probe(const S& s, int depth, int alpha, int beta, int ply, int& value, Move& tt_move) const noexcept {
        tt_move = kNoMove;
        if (!tt) return false;
        TTData d;
        if (!tt->probe(tt_key(s), d)) return false;
        tt_move = d.move;
        if (ply == 0 || d.depth < depth || (d.selective && !selective)) return false;
        if (d.lower >= beta) {
            value = d.lower;
            return true;
        }
        if (d.upper <= alpha) {
            value = d.upper;
            return true;
        }
        if (d.lower == d.upper) {
            value = d.lower;
            return true;
        }
        return false;
    }
    // Stores the fail-soft result `best` of a search with window (alpha, beta).
    void store(const S& s, int depth, int alpha, int beta, int best, Move best_move) noexcept {
        if (!tt || aborted) return;
        const std::uint64_t key = tt_key(s);
        if (restricted_root_key_ == key) return;  // restrict_root
        const int lower = best > alpha ? best : -kInfinity;
        const int upper = best < beta ? best : kInfinity;
        tt->store(key, depth, lower, upper, best_move, selective);
    }

private:
    std::optional<std::uint64_t> restricted_root_key_;
};

// Move-ordering policies for every game.
// NaturalOrder: the game's own order (tic-tac-toe cells, the synthetic tree's oracle), the table's
// move first when `tt_move_first`.
struct NaturalOrder {
    bool tt_move_first = true;
    template <GameState S>
    void operator()(const S&, MoveList& list, Move tt_move, int) const noexcept {
        if (!tt_move_first || tt_move == kNoMove) return;
        auto it = std::find(list.begin(), list.end(), tt_move);
        if (it != list.end()) std::rotate(list.begin(), it, it + 1);
    }
};

}  // namespace reversi
