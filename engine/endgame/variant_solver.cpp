#include "engine/endgame/variant_solver.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/board/moves.hpp"
#include "engine/core/worker_pool.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/solve_root.hpp"
#include "engine/eval/pattern/symmetry.hpp"

namespace reversi::endgame {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kHashEmpties = 8;  // nodes with this many empties or more use the table (and ETC)
constexpr int kSortEmpties = 6;  // nodes with more empties sort their moves by mobility; fewer: parity only
// Nodes with this many empties or more order their moves by a shallow search of each move (no trained
// evaluation exists for the variants: the leaves count mobility and corners), the hash move first: 1 ply
// below 16 empties, 3 below 20, 5 below 24, 7 from 24 (measured on random 6x6 sets, docs/endgame.md).
constexpr int kProbeEmpties = 14;
constexpr int kMinEmptiesForThreads = 14;  // fewer root empties: one thread (too little work to share)

// The four line directions as pairs of shifts (towards higher squares, towards lower squares).
struct Direction {
    int shift;
    Bitboard keep_up;    // squares that may receive a bit shifted up (no wrap across the board's side)
    Bitboard keep_down;  // the same for a shift down
};
constexpr std::array<Direction, 4> kDirections = {{
    {1, kNotColumnA, kNotColumnH},    // along a row
    {8, ~Bitboard{0}, ~Bitboard{0}},  // along a column
    {9, kNotColumnA, kNotColumnH},    // a1-h8 diagonal
    {7, kNotColumnH, kNotColumnA},    // h1-a8 diagonal
}};
constexpr Bitboard up(Bitboard b, const Direction& d) noexcept { return (b << d.shift) & d.keep_up; }
constexpr Bitboard down(Bitboard b, const Direction& d) noexcept { return (b >> d.shift) & d.keep_down; }

// Squares of `playable` that can never be flipped: along every line, a neighbour is off the board.
constexpr Bitboard unflippable_squares(Bitboard playable) noexcept {
    Bitboard s = playable;
    for (const Direction& d : kDirections) s &= ~up(playable, d) | ~down(playable, d);
    return s;
}

// The board of one solve: playable squares, their count, the rule and the table key's salt.
struct Board {
    Bitboard playable = 0;
    int squares = 0;
    ScoreRule rule = ScoreRule::EmptiesToWinner;
    Bitboard corners = 0;  // unflippable squares (the corners of a rectangle, the tips of a diamond)
    std::uint64_t salt = 0;

    // Final score of a finished game for the owner of P (Position::final_score).
    [[nodiscard]] int final_score(Bitboard P, Bitboard O) const noexcept {
        const int diff = popcount(P) - popcount(O);
        if (rule == ScoreRule::DiscDifference || diff == 0) return diff;
        const int empties = squares - popcount(P | O);
        return diff > 0 ? diff + empties : diff - empties;
    }
};

constexpr std::uint64_t salt_of(Bitboard playable, ScoreRule rule) noexcept {
    std::uint64_t h = (playable ^ 0x5bd1e9955bd1e995ULL) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 29;
    return rule == ScoreRule::DiscDifference ? ~h : h;
}

struct ScoredMove {
    int square = 0;
    int key = 0;
    Bitboard next_p = 0;  // the position after the move, opponent to move
    Bitboard next_o = 0;
};

// One thread's search: fail-soft NegaScout, the table from kHashEmpties empties.
class Worker {
public:
    // `cutoff`: a split's flag (another thread proved a beta cut there): the worker stops as when halted.
    Worker(EndgameTT& tt, const Board& board, SolveControl& control, const std::atomic<bool>* cutoff = nullptr)
        : tt_(tt), board_(board), control_(control), cutoff_(cutoff) {}

    [[nodiscard]] std::uint64_t nodes() const noexcept { return nodes_; }
    [[nodiscard]] bool aborted() const noexcept { return aborted_; }

    // Value of (P, O), P to move, in the window (alpha, beta); fail-soft. 0 once aborted.
    template <bool Pv>
    int search(Bitboard P, Bitboard O, int alpha, int beta) {
        const Bitboard empties = board_.playable & ~(P | O);
        const int n = popcount(empties);
        if (n <= kSortEmpties) return shallow(P, O, empties, alpha, beta, false);
        if (must_stop()) return 0;
        ++nodes_;
        // Stability cutoff: P ends with at most squares - stable(O) discs.
        if (board_.squares - 2 * popcount(O) <= alpha) {
            const int bound = board_.squares - 2 * popcount(variant_stable_discs(O, P | O, board_.playable));
            if (bound <= alpha) return bound;
        }
        const bool use_tt = n >= kHashEmpties;
        const std::uint64_t key = use_tt ? hash_discs(P, O) ^ board_.salt : 0;
        Move hash_move = kNoMove;
        if (int score = 0; use_tt && table_cut(key, n, alpha, beta, hash_move, score)) return score;
        const Bitboard moves = legal_moves(P, O) & empties;
        if (!moves) {
            if (!(legal_moves(O, P) & empties)) return board_.final_score(P, O);
            return -search<Pv>(O, P, -beta, -alpha);
        }
        const std::uint64_t nodes_before = nodes_;
        std::array<ScoredMove, 64> list;
        int count = 0;
        if (int score = 0; list_scored_moves(P, O, empties, moves, key, beta, hash_move, list, count, score))
            return score;
        Move best_move = kNoMove;
        const int best = search_moves<Pv>(list, count, alpha, beta, best_move);
        if (aborted_) return 0;
        if (use_tt) {
            const int lower = best > alpha ? best : -kScoreMax;
            const int upper = best < beta ? best : kScoreMax;
            tt_.store(key, n, lower, upper, best_move, nodes_ - nodes_before);
        }
        return best;
    }

    // Sets m.key (higher: searched earlier) for the move m.square from a node with `empties`, whose
    // position after the move is (m.next_p, m.next_o): the table's move first; from kProbeEmpties a
    // shallow search; below, fastest first (few replies), corners and odd quadrants.
    void score_move(ScoredMove& m, Bitboard empties, Bitboard odd, Move hash_move) {
        const int sq = m.square;
        if (sq == hash_move) {
            m.key = 1 << 20;
            return;
        }
        const int n = popcount(empties);
        if (n >= kProbeEmpties) {
            const int depth = n >= 24 ? 7 : (n >= 20 ? 5 : (n >= 16 ? 3 : 1));
            m.key = -probe(m.next_p, m.next_o, empties ^ square_bit(sq), depth, -64 * kInfinity, 64 * kInfinity);
            return;
        }
        const Bitboard replies = legal_moves(m.next_p, m.next_o) & (empties ^ square_bit(sq));
        m.key = -16 * (popcount(replies) + popcount(replies & board_.corners));
        if (board_.corners & square_bit(sq)) m.key += 8;
        if (odd & square_bit(sq)) m.key += 2;
    }
    // Nodes searched (and charged to the control) by other workers on this worker's behalf (a split).
    void add_charged_nodes(std::uint64_t n) noexcept {
        nodes_ += n;
        charged_ += n;
    }
    void add_node() noexcept { ++nodes_; }

private:
    // Charges the nodes every SolveControl::kPollNodes and then checks for a stop (the solve halted or a
    // split's cutoff set); true (and aborted) from then on.
    bool must_stop() {
        if (control_.charge_due(nodes_, charged_) && control_.stopped(cutoff_)) aborted_ = true;
        return aborted_;
    }

    // The table's entry for the node `key` with n empties: true with `score` when its bounds decide the
    // window; else the window narrowed to them and `hash_move` set.
    bool table_cut(std::uint64_t key, int n, int& alpha, int& beta, Move& hash_move, int& score) {
        EndgameTTData e;
        if (!tt_.probe(key, n, e)) return false;
        if (e.cuts(0, alpha, beta, score)) return true;
        hash_move = e.move;
        if (e.lower > alpha) alpha = e.lower;  // still inside (alpha, beta): the bounds narrow it
        if (e.upper < beta) beta = e.upper;
        return false;
    }

    // Lists and scores the moves of (P, O) in list[0, count). True, with `score`, when a child's stored
    // upper bound already refutes it (enhanced transposition cutoff, from kHashEmpties + 1 empties; the
    // cut is stored for the node).
    bool list_scored_moves(Bitboard P, Bitboard O, Bitboard empties, Bitboard moves, std::uint64_t key, int beta,
                           Move hash_move, std::array<ScoredMove, 64>& list, int& count, int& score) {
        const int n = popcount(empties);
        const Bitboard odd = odd_quadrants(empties);
        for (const int sq : squares(moves)) {
            ScoredMove& m = list[static_cast<std::size_t>(count++)];
            const Bitboard f = flips(P, O, sq);
            m.square = sq;
            m.next_p = O ^ f;
            m.next_o = P ^ f ^ square_bit(sq);
            if (n - 1 >= kHashEmpties) {
                EndgameTTData child;
                if (tt_.probe(hash_discs(m.next_p, m.next_o) ^ board_.salt, n - 1, child) && -child.upper >= beta) {
                    tt_.store(key, n, -child.upper, kScoreMax, static_cast<Move>(sq), 1);
                    score = -child.upper;
                    return true;
                }
            }
            score_move(m, empties, odd, hash_move);
        }
        return false;
    }

    // NegaScout over the listed moves, best key first; the best score (fail-soft) and its move.
    template <bool Pv>
    int search_moves(std::array<ScoredMove, 64>& list, int count, int alpha, int beta, Move& best_move) {
        int best = -kInfinity;
        for (int i = 0; i < count; ++i) {
            auto top = std::max_element(list.begin() + i, list.begin() + count,
                                        [](const ScoredMove& a, const ScoredMove& b) { return a.key < b.key; });
            std::iter_swap(list.begin() + i, top);
            const ScoredMove& m = list[static_cast<std::size_t>(i)];
            int score = 0;
            if (i == 0) {
                score = -search<Pv>(m.next_p, m.next_o, -beta, -alpha);
            } else {
                score = -search<false>(m.next_p, m.next_o, -alpha - 1, -alpha);
                if (Pv && score > alpha && score < beta) score = -search<true>(m.next_p, m.next_o, -beta, -alpha);
            }
            if (aborted_) return 0;
            if (score > best) {
                best = score;
                best_move = static_cast<Move>(m.square);
                if (score > alpha) {
                    alpha = score;
                    if (alpha >= beta) break;
                }
            }
        }
        return best;
    }

    // The shallow search that orders moves at kProbeEmpties: `depth` plies of fail-soft alpha-beta, the
    // leaves scored by mobility and corners (units: 1/8 disc-ish), finished games by their score.
    int probe(Bitboard P, Bitboard O, Bitboard empties, int depth, int alpha, int beta) {
        ++nodes_;
        const Bitboard moves = legal_moves(P, O) & empties;
        if (!moves) {
            const Bitboard replies = legal_moves(O, P) & empties;
            if (!replies) return 64 * board_.final_score(P, O);
            if (depth <= 0) return -leaf_value(O, P, replies, moves);
            return -probe(O, P, empties, depth, -beta, -alpha);
        }
        if (depth <= 0) return leaf_value(P, O, moves, legal_moves(O, P) & empties);
        int best = -64 * kInfinity;
        for (const int sq : squares(moves)) {
            const Bitboard f = flips(P, O, sq);
            const int v = -probe(O ^ f, P ^ f ^ square_bit(sq), empties ^ square_bit(sq), depth - 1, -beta, -alpha);
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        }
        return best;
    }
    [[nodiscard]] int leaf_value(Bitboard P, Bitboard O, Bitboard moves, Bitboard replies) const noexcept {
        return 16 * (popcount(moves) - popcount(replies)) +
               64 * (popcount(P & board_.corners) - popcount(O & board_.corners));
    }

    // Fail-soft alpha-beta without table or sorting: moves in odd quadrants first. `passed`: the opponent
    // has just passed (no move here ends the game).
    int shallow(Bitboard P, Bitboard O, Bitboard empties, int alpha, int beta, bool passed) {
        if (popcount(empties) == 1) return last_one(P, O, first_square(empties));
        ++nodes_;
        const Bitboard moves = legal_moves(P, O) & empties;
        if (!moves) {
            if (passed) return board_.final_score(P, O);
            return -shallow(O, P, empties, -beta, -alpha, true);
        }
        const Bitboard odd = odd_quadrants(empties);
        int best = -kInfinity;
        for (const Bitboard part : {moves & odd, moves & ~odd}) {
            for (const int sq : squares(part)) {
                const Bitboard f = flips(P, O, sq);
                const int score =
                    -shallow(O ^ f, P ^ f ^ square_bit(sq), empties ^ square_bit(sq), -beta, -alpha, false);
                if (score > best) {
                    best = score;
                    if (score > alpha) {
                        alpha = score;
                        if (alpha >= beta) return best;
                    }
                }
            }
        }
        return best;
    }

    // The last empty square `sq`: P plays it, else O does, else the game ends with it empty.
    int last_one(Bitboard P, Bitboard O, int sq) {
        ++nodes_;
        Bitboard f = flips(P, O, sq);
        if (f) return board_.final_score(P ^ f ^ square_bit(sq), O ^ f);
        f = flips(O, P, sq);
        if (f) return board_.final_score(P ^ f, O ^ f ^ square_bit(sq));
        return board_.final_score(P, O);
    }

    EndgameTT& tt_;
    const Board& board_;
    SolveControl& control_;
    const std::atomic<bool>* cutoff_;
    std::uint64_t nodes_ = 0;
    std::uint64_t charged_ = 0;
    bool aborted_ = false;
};

// YBWC along the principal variation (threads > 1; the 8x8 solver's RootPass, simplified): at a PV node
// with split_empties or more, the first move is searched by the calling thread (itself split the same
// way, recursively), then every thread takes the next unsearched move from a shared counter and proves it
// worse than the best score so far with a null window, re-searching it with the window when it fails
// high. All threads share the table. A beta cut found by one thread stops the others (the split's flag).
struct SplitShared {
    EndgameTT& tt;
    const Board& board;
    SolveControl& control;
    WorkerPool& pool;
    int threads = 1;
    int split_empties = 18;
};

// Called under the split's lock for each move's result (the root's progress reports): the move's index,
// its score, and the best score before it (the bound it was searched against).
using MoveResult = std::function<void(int index, int score, int alpha_before)>;

int pv_node(const SplitShared& shared, Worker& w, Bitboard P, Bitboard O, int alpha, int beta, bool& aborted);

class SplitPoint {
public:
    struct Outcome {
        int score = -kInfinity;
        int best_index = 0;
        std::uint64_t nodes = 0;
        bool aborted = false;
    };

    SplitPoint(const SplitShared& shared, const std::vector<ScoredMove>& moves, int alpha, int beta)
        : shared_(shared), moves_(moves), alpha_(alpha), beta_(beta) {}

    // `moves`: best first, at least one.
    Outcome run(const MoveResult& on_result) {
        Worker main(shared_.tt, shared_.board, shared_.control, &cut_);
        const ScoredMove& first = moves_.front();
        bool first_aborted = false;
        const int score = -pv_node(shared_, main, first.next_p, first.next_o, -beta_, -alpha_, first_aborted);
        Outcome out;
        if (first_aborted) {
            out.aborted = true;
            out.nodes = main.nodes();
            return out;
        }
        record(0, score, on_result);
        const auto helpers_count = static_cast<std::size_t>(shared_.threads - 1);
        std::vector<std::uint64_t> helper_nodes(helpers_count, 0);
        std::vector<char> helper_aborted(helpers_count, 0);
        {
            TaskGroup helpers(shared_.pool);  // its destructor waits for the tasks
            if (moves_.size() > 1 && score < beta_) {
                for (std::size_t t = 0; t < helpers_count; ++t) {
                    helpers.run([this, t, &helper_nodes, &helper_aborted, &on_result] {
                        Worker w(shared_.tt, shared_.board, shared_.control, &cut_);
                        share_moves(w, on_result);
                        helper_nodes[t] = w.nodes();
                        helper_aborted[t] = w.aborted() ? 1 : 0;
                    });
                }
            }
            share_moves(main, on_result);
            helpers.wait();
        }
        std::lock_guard lock(mutex_);
        out.score = best_;
        out.best_index = best_index_;
        out.nodes = main.nodes();
        bool aborted = main.aborted();
        for (std::size_t t = 0; t < helpers_count; ++t) {
            out.nodes += helper_nodes[t];
            aborted = aborted || helper_aborted[t] != 0;
        }
        out.aborted = aborted && !cut_.load(std::memory_order_relaxed);
        return out;
    }

private:
    void share_moves(Worker& w, const MoveResult& on_result) {
        for (;;) {
            const int i = next_.fetch_add(1, std::memory_order_relaxed);
            if (i >= static_cast<int>(moves_.size())) return;
            const ScoredMove& m = moves_[static_cast<std::size_t>(i)];
            for (;;) {
                const int a = current_alpha();
                if (a >= beta_) return;
                int score = -w.search<false>(m.next_p, m.next_o, -a - 1, -a);
                if (w.aborted()) return;
                if (score > a) {
                    const int a2 = current_alpha();
                    if (a2 >= beta_) return;
                    if (score <= a2 && a2 != a) continue;  // the best improved meanwhile: test again
                    if (score < beta_) score = -w.search<true>(m.next_p, m.next_o, -beta_, -a2);
                    if (w.aborted()) return;
                }
                record(i, score, on_result);
                break;
            }
        }
    }

    int current_alpha() {
        std::lock_guard lock(mutex_);
        return std::max(alpha_, best_);
    }

    void record(int index, int score, const MoveResult& on_result) {
        std::lock_guard lock(mutex_);
        const int before = std::max(alpha_, best_);
        if (score > best_) {
            best_ = score;
            best_index_ = index;
        }
        if (score >= beta_) cut_.store(true, std::memory_order_relaxed);
        if (on_result) on_result(index, score, before);
    }

    const SplitShared& shared_;
    const std::vector<ScoredMove>& moves_;
    const int alpha_;
    const int beta_;
    std::atomic<int> next_{1};
    std::atomic<bool> cut_{false};
    std::mutex mutex_;
    int best_ = -kInfinity;  // guarded by mutex_
    int best_index_ = 0;
};

// A PV node (P to move, window (alpha, beta)) by worker w, split from shared.split_empties empties on;
// fail-soft like Worker::search, and stored in the table like a searched node.
int pv_node(const SplitShared& shared, Worker& w, Bitboard P, Bitboard O, int alpha, int beta, bool& aborted) {
    const Board& board = shared.board;
    const Bitboard empties = board.playable & ~(P | O);
    const int n = popcount(empties);
    if (n < shared.split_empties) {
        const int score = w.search<true>(P, O, alpha, beta);
        aborted = w.aborted();
        return score;
    }
    if (shared.control.halted()) {
        aborted = true;
        return 0;
    }
    w.add_node();
    const std::uint64_t key = hash_discs(P, O) ^ board.salt;
    Move hash_move = kNoMove;
    if (EndgameTTData e; shared.tt.probe(key, n, e)) {
        if (int cut = 0; e.cuts(0, alpha, beta, cut)) return cut;
        hash_move = e.move;
    }
    const Bitboard moves = legal_moves(P, O) & empties;
    if (!moves) {
        if (!(legal_moves(O, P) & empties)) return board.final_score(P, O);
        return -pv_node(shared, w, O, P, -beta, -alpha, aborted);
    }
    std::vector<ScoredMove> list;
    const Bitboard odd = odd_quadrants(empties);
    for (const int sq : squares(moves)) {
        const Bitboard f = flips(P, O, sq);
        ScoredMove m{sq, 0, O ^ f, P ^ f ^ square_bit(sq)};
        w.score_move(m, empties, odd, hash_move);
        list.push_back(m);
    }
    std::stable_sort(list.begin(), list.end(), [](const ScoredMove& a, const ScoredMove& b) { return a.key > b.key; });
    SplitPoint split(shared, list, alpha, beta);
    const SplitPoint::Outcome out = split.run({});
    w.add_charged_nodes(out.nodes);
    if (out.aborted) {
        aborted = true;
        return 0;
    }
    const int best = out.score;
    const Move best_move = static_cast<Move>(list[static_cast<std::size_t>(out.best_index)].square);
    shared.tt.store(key, n, best > alpha ? best : -kScoreMax, best < beta ? best : kScoreMax, best_move, out.nodes);
    return best;
}

// True when (p, o) is the image of an earlier root move's position by a symmetry of the board.
bool symmetric_to_earlier(const std::vector<ScoredMove>& earlier, Bitboard playable, Bitboard p, Bitboard o) {
    for (int g = 1; g < eval::kSymmetryCount; ++g) {
        if (eval::transform(g, playable) != playable) continue;
        const Bitboard gp = eval::transform(g, p);
        const Bitboard go = eval::transform(g, o);
        for (const ScoredMove& m : earlier) {
            if (m.next_p == gp && m.next_o == go) return true;
        }
    }
    return false;
}

// Root moves best first: the table's move, then the fewest replies. A move whose position is a symmetric
// image of another's (the four first moves of a start position) has its value: it is left out.
std::vector<ScoredMove> root_moves(EndgameTT& tt, const Board& board, Bitboard P, Bitboard O) {
    const Bitboard empties = board.playable & ~(P | O);
    EndgameTTData e;
    const Move hash_move = tt.probe(hash_discs(P, O) ^ board.salt, popcount(empties), e) ? e.move : kNoMove;
    std::vector<ScoredMove> list;
    for (const int sq : squares(legal_moves(P, O) & empties)) {
        const Bitboard f = flips(P, O, sq);
        ScoredMove m{sq, 0, O ^ f, P ^ f ^ square_bit(sq)};
        if (sq != hash_move && symmetric_to_earlier(list, board.playable, m.next_p, m.next_o)) continue;
        const Bitboard replies = legal_moves(m.next_p, m.next_o) & (empties ^ square_bit(sq));
        m.key = sq == hash_move ? 1 << 20 : -(popcount(replies) + popcount(replies & board.corners));
        list.push_back(m);
    }
    std::stable_sort(list.begin(), list.end(), [](const ScoredMove& a, const ScoredMove& b) { return a.key > b.key; });
    return list;
}

// NegaScout at the root on one thread: the first move with the window, the others with a null window,
// re-searched when they fail high. Returns the best score (fail-soft) and its move.
std::pair<int, Move> single_thread_root(Worker& worker, SolveControl& control, const std::vector<ScoredMove>& moves,
                                        int alpha, int beta) {
    int best = -kInfinity;
    Move best_move = static_cast<Move>(moves.front().square);
    int lo = alpha;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const ScoredMove& m = moves[i];
        int score = 0;
        if (i == 0) {
            score = -worker.search<true>(m.next_p, m.next_o, -beta, -lo);
        } else {
            score = -worker.search<false>(m.next_p, m.next_o, -lo - 1, -lo);
            if (score > lo && score < beta) score = -worker.search<true>(m.next_p, m.next_o, -beta, -lo);
        }
        if (worker.aborted()) break;
        const bool new_best = score > best;
        if (new_best) {
            best = score;
            best_move = static_cast<Move>(m.square);
        }
        if (control.reports()) {
            RootProgress p;
            p.move = static_cast<Move>(m.square);
            p.score = score;
            p.bound = bound_of(score, lo, beta);
            p.new_best = new_best;
            p.nodes = worker.nodes();
            p.time = control.elapsed();
            control.report(p);
        }
        if (score > lo) lo = score;
        if (lo >= beta) break;
    }
    return {best, best_move};
}

// The principal variation from (P, O) of exact value `value`: at each node the table's move when a
// null-window check around the value confirms it, else the first move that does (cheap: the table is warm).
std::vector<Move> principal_variation(Worker& worker, EndgameTT& tt, const Board& board, Bitboard P, Bitboard O,
                                      int value) {
    std::vector<Move> pv;
    while (!worker.aborted()) {
        const Bitboard empties = board.playable & ~(P | O);
        const Bitboard moves = legal_moves(P, O) & empties;
        if (!moves) {
            if (!(legal_moves(O, P) & empties)) break;
            pv.push_back(kPass);
            std::swap(P, O);
            value = -value;
            continue;
        }
        EndgameTTData e;
        const Move hash_move = tt.probe(hash_discs(P, O) ^ board.salt, popcount(empties), e) ? e.move : kNoMove;
        std::vector<int> order;
        if (hash_move < 64 && (moves & square_bit(hash_move))) order.push_back(hash_move);
        for (const int sq : squares(moves)) {
            if (sq != hash_move) order.push_back(sq);
        }
        bool found = false;
        for (const int sq : order) {
            const Bitboard f = flips(P, O, sq);
            const Bitboard np = O ^ f;
            const Bitboard no = P ^ f ^ square_bit(sq);
            if (-worker.search<true>(np, no, -value - 1, -value + 1) != value) continue;
            pv.push_back(static_cast<Move>(sq));
            P = np;
            O = no;
            value = -value;
            found = true;
            break;
        }
        if (!found) break;
    }
    return pv;
}

// What makes a request unsolvable here, or nothing.
std::optional<std::string> request_error(const Position& pos, const SolveOptions& options) {
    if (pos.playable == 0) return "variant solver: the board has no playable square";
    if ((pos.player & pos.opponent) != 0) return "variant solver: two discs on one square";
    if (((pos.player | pos.opponent) & ~pos.playable) != 0) return "variant solver: a disc off the variant's board";
    if (options.alpha >= options.beta) return "variant solver: empty or reversed window";
    if (options.threads < 1 || options.threads > 256) return "variant solver: threads must be within 1..256";
    return std::nullopt;
}

// The root's search: its fail-soft score and best move, whether it was stopped, and (split among the
// threads) the nodes of all of them.
struct RootOutcome {
    int score = -kInfinity;
    Move best_move = kNoMove;
    bool aborted = false;
    std::uint64_t nodes = 0;
};

// YBWC from the root (SplitPoint) on shared.threads threads, each root move reported as it is done.
RootOutcome split_root(const SplitShared& shared, const std::vector<ScoredMove>& moves, int alpha, int beta) {
    SolveControl& control = shared.control;
    const MoveResult report = [&](int index, int score, int before) {
        if (!control.reports()) return;
        RootProgress p;
        p.move = static_cast<Move>(moves[static_cast<std::size_t>(index)].square);
        p.score = score;
        p.bound = score >= beta ? Bound::Lower : (score <= before ? Bound::Upper : Bound::Exact);
        p.new_best = score > before || index == 0;
        p.nodes = control.charged();
        p.time = control.elapsed();
        control.report(p);
    };
    SplitPoint root(shared, moves, alpha, beta);
    const SplitPoint::Outcome out = root.run(report);
    return RootOutcome{out.score, static_cast<Move>(moves[static_cast<std::size_t>(out.best_index)].square),
                       out.aborted, out.nodes};
}

// The end of the root's search with the root's window: its best move and score.
void report_root_end(SolveControl& control, const RootOutcome& out, const SolveRoot& root, std::uint64_t nodes) {
    if (!control.reports()) return;
    RootProgress p;
    p.move = out.best_move;
    p.score = out.score;
    p.bound = bound_of(out.score, root.alpha, root.beta);
    p.new_best = true;
    p.pass_end = true;
    p.nodes = nodes;
    p.time = control.elapsed();
    control.report(p);
}

// The principal variation of an exact root score, from the position as given (a pass first when the
// side to move had to pass).
std::vector<Move> root_principal_variation(Worker& worker, EndgameTT& tt, const Board& board, const SolveRoot& root,
                                           const RootOutcome& out) {
    const Bitboard f = flips(root.P, root.O, out.best_move);
    std::vector<Move> pv{out.best_move};
    const auto rest =
        principal_variation(worker, tt, board, root.O ^ f, root.P ^ f ^ square_bit(out.best_move), -out.score);
    pv.insert(pv.end(), rest.begin(), rest.end());
    if (root.passed()) pv.insert(pv.begin(), kPass);
    return pv;
}

}  // namespace

std::uint64_t variant_key(Bitboard P, Bitboard O, Bitboard playable, ScoreRule rule) noexcept {
    return hash_discs(P, O) ^ salt_of(playable, rule);
}

Bitboard variant_stable_discs(Bitboard discs, Bitboard filled, Bitboard playable) noexcept {
    // Squares whose line along each direction is full (no move can ever be played on it).
    std::array<Bitboard, 4> full{};
    for (std::size_t i = 0; i < kDirections.size(); ++i) {
        const Direction& d = kDirections[i];
        Bitboard f = filled & playable;
        for (;;) {
            const Bitboard next = f & (~up(playable, d) | up(f, d)) & (~down(playable, d) | down(f, d));
            if (next == f) break;
            f = next;
        }
        full[i] = f;
    }
    // Grow the stable set: along every line the line is full or a neighbour is off the board or stable.
    Bitboard stable = 0;
    for (;;) {
        const Bitboard open = playable & ~stable;  // squares that are neither off the board nor stable
        Bitboard next = discs & playable;
        for (std::size_t i = 0; i < kDirections.size(); ++i) {
            const Direction& d = kDirections[i];
            next &= full[i] | ~(up(open, d) & down(open, d));
        }
        if (next == stable) break;
        stable = next;
    }
    return stable;
}

Expected<SolveResult> VariantSolver::solve(const Position& pos, const SolveOptions& options, const SolveLimits& limits,
                                           const ProgressCallback& progress) {
    if (auto error = request_error(pos, options)) return make_error(std::move(*error));
    const auto start = Clock::now();
    const Board board{pos.playable, popcount(pos.playable), pos.rule, unflippable_squares(pos.playable),
                      salt_of(pos.playable, pos.rule)};
    tt_.new_search();
    SolveResult result;
    const Bitboard empties = board.playable & ~(pos.player | pos.opponent);
    const SolveRoot root = solve_root(
        pos.player, pos.opponent, std::max(options.alpha, -kInfinity), std::min(options.beta, kInfinity),
        (legal_moves(pos.player, pos.opponent) & empties) != 0, (legal_moves(pos.opponent, pos.player) & empties) != 0);
    if (root.over) {
        result.score = board.final_score(root.P, root.O);
        result.bound = bound_of(result.score, root.alpha, root.beta);
        result.nodes = 1;
        return result;
    }
    if (root.passed()) result.best_move = kPass;
    const ProgressCallback relay = progress_for_side(progress, root.sign);
    SolveControl control(limits, start, &relay);
    Worker worker(tt_, board, control);
    const auto moves = root_moves(tt_, board, root.P, root.O);
    const int n = popcount(empties);
    const int threads = n >= kMinEmptiesForThreads ? options.threads : 1;
    RootOutcome out;
    if (threads > 1) {
        out = split_root(
            SplitShared{tt_, board, control, worker_pool(threads), threads, std::max(options.split_empties, 1)}, moves,
            root.alpha, root.beta);
        worker.add_charged_nodes(out.nodes);
    } else {
        const auto one = single_thread_root(worker, control, moves, root.alpha, root.beta);
        out = RootOutcome{one.first, one.second, worker.aborted(), 0};
    }
    if (!out.aborted) {
        tt_.store(hash_discs(root.P, root.O) ^ board.salt, n, out.score > root.alpha ? out.score : -kScoreMax,
                  out.score < root.beta ? out.score : kScoreMax, out.best_move, worker.nodes());
        report_root_end(control, out, root, worker.nodes());
    }
    if (result.best_move != kPass) result.best_move = out.best_move;
    result.bound = bound_of(out.score, root.alpha, root.beta);
    if (!out.aborted && result.bound == Bound::Exact) {
        result.pv = root_principal_variation(worker, tt_, board, root, out);
    }
    result.score = root.sign * out.score;
    if (root.passed()) result.bound = negated(result.bound);
    result.completed = !out.aborted;  // the score is proven even when the limits cut the principal variation short
    result.passes = 1;
    result.nodes = worker.nodes();
    result.time = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return result;
}

WorkerPool& VariantSolver::worker_pool(int threads) {
    if (!pool_) pool_ = std::make_unique<WorkerPool>();
    if (pool_->size() < threads - 1) (void)pool_->resize(threads - 1);
    return *pool_;
}

}  // namespace reversi::endgame
