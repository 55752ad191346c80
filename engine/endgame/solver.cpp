#include "engine/endgame/solver.hpp"

#include <algorithm>
#include <mutex>
#include <string>

#include "engine/board/moves.hpp"
#include "engine/core/worker_pool.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/search_worker.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/endgame/shared_move.hpp"

namespace reversi::endgame {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMinEmptiesForThreads = 14;

struct RootMove {
    int square = 0;
    Bitboard next_p = 0;  // the position after the move, opponent to move
    Bitboard next_o = 0;
};

// The scored moves of `list` (P to move), best first.
std::vector<RootMove> sorted_children(EndgameMoveList& list, Bitboard P, Bitboard O) {
    std::vector<RootMove> out;
    for (int i = 0; i < list.size; ++i) {
        list.pick_best(i);
        const EndgameMove& m = list.moves[static_cast<std::size_t>(i)];
        out.push_back(RootMove{m.square, O ^ m.flipped, P ^ m.flipped ^ square_bit(m.square)});
    }
    return out;
}

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

    Outcome run(const std::vector<RootMove>& moves, int alpha, int beta) {
        moves_ = &moves;
        alpha_ = alpha;
        beta_ = beta;
        // Without a split below: helpers start at once on the other moves (null windows at alpha until
        // the first move's score is known: a refutation at a lower alpha is still a refutation), the
        // caller takes the first. With one (YBWC): helpers start once the first move is done.
        const RootMove& first = moves.front();
        const bool ybwc = threads_ > 1 && popcount(~(first.next_p | first.next_o)) >= split_empties_;
        std::vector<WorkerCounts> helper_counts(static_cast<std::size_t>(threads_ - 1));
        std::vector<char> helper_aborted(static_cast<std::size_t>(threads_ - 1), 0);
        TaskGroup helpers(pool_);  // after what its tasks write: its destructor waits for them
        int spawned = 0;
        const auto spawn_helpers = [&] {
            spawned = threads_ - 1;
            for (int t = 1; t < threads_; ++t) {
                helpers.run([this, t, &helper_counts, &helper_aborted] {
                    help_pass(helper_counts[static_cast<std::size_t>(t - 1)],
                              helper_aborted[static_cast<std::size_t>(t - 1)]);
                });
            }
        };
        if (moves.size() > 1 && !ybwc) spawn_helpers();
        SearchWorker main = pass_worker();
        bool first_aborted = false;
        int score = 0;
        if (ybwc) {
            score = -pv_node(main, first.next_p, first.next_o, -beta, -alpha, first_aborted);
        } else {
            score = -main.search(first.next_p, first.next_o, -beta, -alpha);
            first_aborted = main.aborted();
        }
        bool aborted = false;
        if (first_aborted) {
            aborted = !beta_cut_;
        } else {
            nodes_done_.fetch_add(main.nodes(), std::memory_order_relaxed);
            record(0, score);
            if (moves.size() > 1 && ybwc && score < beta) spawn_helpers();
            const std::uint64_t before = main.nodes();
            split_loop(main);
            nodes_done_.fetch_add(main.nodes() - before, std::memory_order_relaxed);
            aborted = main.aborted() && !beta_cut_;
        }
        if (aborted) cutoff_.store(true, std::memory_order_relaxed);
        busy_.fetch_sub(1);
        // Help the helpers on their last moves; a helper that no worker has started yet is run here by
        // the wait below instead.
        if (board_ && spawned > 0 && !aborted) {
            main.wait_helping(kScoreMax, [&] { return pass_over() || started_.load() < spawned; });
        }
        helpers.wait();
        WorkerCounts counts = main.counts();
        for (std::size_t i = 0; i < helper_counts.size(); ++i) {
            counts += helper_counts[i];
            aborted = aborted || (helper_aborted[i] && !beta_cut_ && !main.aborted());
        }
        outcome_.aborted = aborted || control_.halted();
        outcome_.counts = counts;
        return outcome_;
    }

private:
    // A worker of this pass: its selectivity, probcut depth and split points.
    SearchWorker pass_worker() {
        SearchWorker w(tt_, control_, &cutoff_, pattern_);
        w.set_selectivity_level(selectivity_level_);
        w.set_probcut_empties(probcut_empties_);
        w.set_split_board(board_);
        return w;
    }

    // A helper thread's part of the pass: the root moves it takes, then help at the split points of the
    // threads still searching until the pass is over; its counts and whether it was stopped.
    void help_pass(WorkerCounts& counts, char& aborted) {
        // Counted busy from its start, not from its queueing: a task that no worker starts is run by the
        // caller at the join, after the others, and must not be waited for.
        busy_.fetch_add(1);
        started_.fetch_add(1);
        SearchWorker w = pass_worker();
        split_loop(w);
        busy_.fetch_sub(1);
        if (board_ && !w.aborted()) w.wait_helping(kScoreMax, [this] { return pass_over(); });
        counts = w.counts();
        aborted = w.aborted() ? 1 : 0;
    }

    // A principal-variation node below the pass's first move (P to move, window (alpha, beta)), searched
    // by the calling thread's worker `w` or, from split_empties_ on, as a YBWC split of its own among all
    // the threads (its first move recursively, then the others shared). Sets `aborted` when stopped; the
    // value is fail-soft like SearchWorker::search and is stored in the table like a searched node.
    int pv_node(SearchWorker& w, Bitboard P, Bitboard O, int alpha, int beta, bool& aborted) {
        const int empties = popcount(~(P | O));
        if (empties < split_empties_) {
            const int score = w.search(P, O, alpha, beta);
            aborted = w.aborted();
            return score;
        }
        if (control_.halted()) {
            aborted = true;
            return 0;
        }
        w.add_nodes(1);
        const std::uint64_t key = hash_discs(P, O);
        EndgameTTData entry;
        Move hash_move = kNoMove;
        Move second = kNoMove;
        if (tt_.probe(key, empties, entry)) {
            if (int cut = 0; entry.cuts(selectivity_level_, alpha, beta, cut)) return cut;
            hash_move = entry.move;
            second = entry.second;
        }
        const Bitboard moves = legal_moves(P, O);
        if (!moves) {
            if (!legal_moves(O, P)) return final_score(P, empties);
            return -pv_node(w, O, P, -beta, -alpha, aborted);
        }
        std::uint64_t order_nodes = 0;
        EndgameMoveList list;
        w.add_scored_children(score_moves(list, P, O, moves, empties, hash_move, second, order_nodes, pattern_));
        w.add_nodes(order_nodes);
        const std::vector<RootMove> children = sorted_children(list, P, O);
        RootPass split(tt_, control_, pool_, board_, threads_, false, 0, pattern_, selectivity_level_, probcut_empties_,
                       split_empties_);
        const Outcome out = split.run(children, alpha, beta);
        w.add_charged(out.counts);
        if (out.aborted) {
            aborted = true;
            return 0;
        }
        const int best = out.score;
        const Move best_move =
            best > alpha ? static_cast<Move>(children[static_cast<std::size_t>(out.best_index)].square) : kNoMove;
        tt_.store(key, empties, best > alpha ? best : -kScoreMax, best < beta ? best : kScoreMax, best_move,
                  out.counts.nodes, empties >= probcut_empties_ ? selectivity_level_ : 0);
        return best;
    }

    // Takes the next unsearched move and proves it worse than the best score so far (null window), or
    // re-searches it with the window (best, beta) when it fails high against the current best.
    void split_loop(SearchWorker& w) {
        for (;;) {
            const int i = next_.fetch_add(1, std::memory_order_relaxed);
            if (i >= static_cast<int>(moves_->size())) return;
            const RootMove& m = (*moves_)[static_cast<std::size_t>(i)];
            const std::uint64_t before = w.nodes();
            const std::optional<int> score = shared_move_score(
                beta_, true, [&] { return current_alpha(); },
                [&](int a) { return -w.null_window(m.next_p, m.next_o, -a - 1); },
                [&](int a) { return -w.search(m.next_p, m.next_o, -beta_, -a); }, [&] { return w.aborted(); });
            if (!score) return;
            nodes_done_.fetch_add(w.nodes() - before, std::memory_order_relaxed);
            record(i, *score);
        }
    }

    // Every thread is done with its moves (or the pass is cut or stopped).
    [[nodiscard]] bool pass_over() const noexcept {
        return busy_.load() == 0 || cutoff_.load(std::memory_order_relaxed) || control_.halted();
    }

    int current_alpha() {
        std::lock_guard lock(mutex_);
        return std::max(alpha_, outcome_.score);
    }

    void record(int index, int score) {
        std::lock_guard lock(mutex_);
        const int a = std::max(alpha_, outcome_.score);
        const bool new_best = score > outcome_.score;
        if (new_best) {
            outcome_.score = score;
            outcome_.best_index = index;
        }
        if (score >= beta_) {
            beta_cut_.store(true, std::memory_order_relaxed);
            cutoff_.store(true, std::memory_order_relaxed);
        }
        if (reports_ && control_.reports()) {
            RootProgress p;
            p.move = static_cast<Move>((*moves_)[static_cast<std::size_t>(index)].square);
            p.score = score;
            p.bound = score >= beta_ ? Bound::Lower : (score <= a ? Bound::Upper : Bound::Exact);
            p.new_best = new_best;
            p.selectivity_level = selectivity_level_;
            p.nodes = nodes_before_ + nodes_done_.load(std::memory_order_relaxed);
            p.time = control_.elapsed();
            control_.report(p);
        }
    }

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

// The end of a root pass with the window (lo, hi): its best move and its score (a bound when it failed).
void report_pass_end(SolveControl& control, Move best, int score, int lo, int hi, int level, std::uint64_t nodes) {
    if (!control.reports()) return;
    RootProgress p;
    p.move = best;
    p.score = score;
    p.bound = bound_on_scale(score, lo, hi, kScoreMax);
    p.new_best = true;
    p.pass_end = true;
    p.selectivity_level = level;
    p.nodes = nodes;
    p.time = control.elapsed();
    control.report(p);
}

// Root moves, best first: the previous search's best (when given and legal), the table's moves, then a
// deeper shallow search than inside the tree.
std::vector<RootMove> order_root_moves(EndgameTT& tt, Bitboard P, Bitboard O, Move previous_best, std::uint64_t& nodes,
                                       const eval::PatternEvaluator* pattern) {
    const Bitboard moves = legal_moves(P, O);
    const int empties = popcount(~(P | O));
    EndgameMoveList list;
    EndgameTTData entry;
    Move hash_move = previous_best < 64 && (moves & square_bit(previous_best)) ? previous_best : kNoMove;
    Move second = kNoMove;
    if (tt.probe(hash_discs(P, O), empties, entry)) {
        if (hash_move == kNoMove) {
            hash_move = entry.move;
            second = entry.second;
        } else {
            second = entry.move != hash_move ? entry.move : entry.second;  // the table's move next
        }
    }
    score_moves(list, P, O, moves, std::max(empties, 24), hash_move, second, nodes, pattern);
    return sorted_children(list, P, O);
}

// Principal variation read from the transposition table (exact entries with a legal best move).
std::vector<Move> read_pv(const EndgameTT& tt, Bitboard P, Bitboard O, Move first) {
    std::vector<Move> pv{first};
    const Bitboard f = flips_from_rays(P, O, first);
    Bitboard p = O ^ f;
    Bitboard o = P ^ f ^ square_bit(first);
    for (int guard = 0; guard < 60; ++guard) {
        const Bitboard moves = legal_moves(p, o);
        if (!moves) {
            if (!legal_moves(o, p)) break;
            pv.push_back(kPass);
            std::swap(p, o);
            continue;
        }
        EndgameTTData e;
        if (!tt.probe(hash_discs(p, o), popcount(~(p | o)), e) || e.selectivity_level != 0 || e.lower != e.upper ||
            e.move >= 64 || !(moves & square_bit(e.move))) {
            break;
        }
        pv.push_back(e.move);
        const Bitboard g = flips_from_rays(p, o, e.move);
        const Bitboard np = o ^ g;
        o = p ^ g ^ square_bit(e.move);
        p = np;
    }
    return pv;
}

}  // namespace

EndgameSolver::EndgameSolver(std::size_t hash_mib, WorkerPool* pool) : tt_(hash_mib), borrowed_pool_(pool) {
    // Loaded once, read-only afterwards and shared by every search thread; without it (a corrupted
    // embedded file) the ordering falls back to the simple evaluation.
    if (auto p = eval::PatternEvaluator::embedded_default()) {
        pattern_ = std::make_shared<const eval::PatternEvaluator>(std::move(*p));
    }
}
EndgameSolver::~EndgameSolver() = default;

WorkerPool& EndgameSolver::worker_pool(int threads) {
    if (borrowed_pool_) return *borrowed_pool_;
    if (!own_pool_) own_pool_ = std::make_unique<WorkerPool>();
    if (own_pool_->size() < threads - 1) (void)own_pool_->resize(threads - 1);
    return *own_pool_;
}

Expected<SolveResult> EndgameSolver::solve(const Position& pos, const SolveOptions& options, const SolveLimits& limits,
                                           const ProgressCallback& progress) {
    if (pos.playable != ~Bitboard{0} || pos.rule != ScoreRule::EmptiesToWinner) {
        return make_error(
            "the endgame solver handles the standard 8x8 board only (this position is on a "
            "variant board or uses the disc-difference rule)");
    }
    if ((pos.player & pos.opponent) != 0) return make_error("invalid position: a square holds two discs");
    if (options.alpha < -kScoreMax || options.beta > kScoreMax || options.alpha >= options.beta) {
        return make_error("invalid window (" + std::to_string(options.alpha) + ", " + std::to_string(options.beta) +
                          "): need -64 <= alpha < beta <= 64");
    }
    if (options.threads < 1 || options.threads > 256) return make_error("threads must be within 1..256");

    const auto start = Clock::now();
    tt_.new_search();
    SolveResult result;
    Bitboard P = pos.player;
    Bitboard O = pos.opponent;
    int sign = 1;
    int alpha = options.alpha;
    int beta = options.beta;
    if (!legal_moves(P, O)) {
        if (!legal_moves(O, P)) {
            result.score = final_score(P, popcount(~(P | O)));
            result.bound = bound_on_scale(result.score, alpha, beta, kScoreMax);
            result.nodes = 1;
            return result;
        }
        result.best_move = kPass;
        std::swap(P, O);
        sign = -1;
        std::swap(alpha, beta);
        alpha = -alpha;
        beta = -beta;
    }
    const int empties = popcount(~(P | O));
    const int threads = empties >= kMinEmptiesForThreads ? options.threads : 1;
    WorkerPool& pool = worker_pool(threads);
    SplitBoard board;

    std::uint64_t nodes = 0;
    // The hints are for the side to move: not when it must pass (the root is then the opponent's).
    const bool hinted = sign == 1;
    auto moves = order_root_moves(tt_, P, O, hinted ? options.first_move : kNoMove, nodes, pattern_.get());

    // Aspiration: a narrow window around a guess (an exact table entry, else the caller's guess, else a
    // shallow estimate; after a selective pass, its score).
    const bool use_aspiration = options.aspiration && empties >= 16 && beta - alpha > 8;
    int guess = 0;
    if (use_aspiration) {
        EndgameTTData e;
        if (tt_.probe(hash_discs(P, O), empties, e) && e.selectivity_level == 0 && e.lower == e.upper) {
            guess = e.lower;
        } else if (hinted && options.guess) {
            guess = std::clamp(*options.guess, -kScoreMax, kScoreMax);
        } else {
            guess = evaluation_search(P, O, 4, -kScoreMax, kScoreMax, nodes);
        }
    }
    // Passes of decreasing selectivity, the last one exact.
    std::vector<int> levels;
    if (options.selective && pattern_ && empties >= options.selective_min_empties) {
        for (int level = kMaxSelectivityLevel; level > 0; --level) levels.push_back(level);
    }
    levels.push_back(0);
    int score = 0;
    int best_index = 0;
    bool aborted = false;
    const ProgressCallback relay = progress_for_side(progress, sign);
    SolveControl control(limits, start, &relay);
    control.count(nodes);
    Move best = static_cast<Move>(moves.front().square);

    // The passes of one level within (a, b): from a narrow window around `guess` when `aspiration`,
    // widened after each fail until the score is inside. A selective pass is not consistent (a fail high
    // then a fail low on the re-search is possible): after three re-searches its score is taken as it
    // is, it is only a guess.
    struct LevelOutcome {
        bool aborted = false;
        bool resolved = false;  // a pass ran to its end (when aborted: an earlier re-search)
        int score = 0;
        int best_index = 0;
    };
    const auto run_level = [&](int level, int a, int b, bool aspiration) {
        LevelOutcome out;
        int lo = a;
        int hi = b;
        if (aspiration) {
            const int g = std::clamp(guess & ~1, a + 1, b - 1);
            lo = std::max(a, g - 3);
            hi = std::min(b, g + 3);
        }
        int delta = 6;
        int selective_fails = 0;
        for (;;) {
            RootPass pass(tt_, control, pool, threads > 1 ? &board : nullptr, threads, true, nodes, pattern_.get(),
                          level, std::max(options.probcut_empties, kProbCutMinEmpties), options.split_empties);
            const auto o = pass.run(moves, lo, hi);
            nodes += o.counts.nodes;
            result.probcuts += o.counts.probcuts;
            result.scored_children += o.counts.scored_children;
            ++result.passes;
            if (o.aborted) {
                out.aborted = true;
                return out;
            }
            out.resolved = true;
            out.score = o.score;
            out.best_index = o.best_index;
            const Move pass_best = static_cast<Move>(moves[static_cast<std::size_t>(o.best_index)].square);
            report_pass_end(control, pass_best, o.score, lo, hi, level, nodes);
            if (level > 0 && ++selective_fails > 3) return out;
            // A fail at the end of the scale is the score itself: nothing lies beyond -64 or 64.
            if (o.score <= -kScoreMax || o.score >= kScoreMax) return out;
            if (o.score <= lo && lo > a) {
                hi = o.score + 1;
                lo = std::max(a, o.score - delta);
            } else if (o.score >= hi && hi < b) {
                lo = o.score - 1;
                hi = std::min(b, o.score + delta);
            } else {
                return out;
            }
            delta *= 2;
        }
    };
    // A stopped level: the score and move of its last finished re-search, if any, are the best found so far.
    const auto stopped = [&](const LevelOutcome& o) {
        aborted = true;
        if (!o.resolved) return;
        score = o.score;
        best = static_cast<Move>(moves[static_cast<std::size_t>(o.best_index)].square);
    };
    // A finished level: its score and best move; the next level starts from them.
    const auto adopt = [&](const LevelOutcome& o) {
        score = o.score;
        best_index = o.best_index;
        best = static_cast<Move>(moves[static_cast<std::size_t>(best_index)].square);
        guess = score;
        std::rotate(moves.begin(), moves.begin() + best_index, moves.begin() + best_index + 1);
        return ResolvedPass{0, sign * score, result.best_move == kPass ? kPass : best};
    };

    // A finished win/loss/draw pass of `level`: adopted, but the exact pass's aspiration keeps its estimate.
    const auto adopt_wld = [&](const LevelOutcome& o, int level) {
        const int kept_guess = guess;
        ResolvedPass pass = adopt(o);
        guess = kept_guess;
        pass.level = level;
        pass.wld_window = true;
        return pass;
    };

    const bool wld_first = options.wld_first && alpha < -1 && beta > 1;
    const bool selective_wld = wld_first && options.wld_first_level > 0 &&
                               options.wld_first_level <= kMaxSelectivityLevel && pattern_ &&
                               empties > std::max(options.probcut_empties, kProbCutMinEmpties);
    for (const int level : levels) {
        int a = alpha;
        int b = beta;
        if (level == 0 && selective_wld) {
            // A selective win/loss/draw pass first: what the solve answers when stopped before the next.
            const LevelOutcome s = run_level(options.wld_first_level, -1, 1, false);
            if (s.aborted) {
                stopped(s);
                break;
            }
            result.last_pass = adopt_wld(s, options.wld_first_level);
        }
        if (level == 0 && wld_first) {
            // The win/loss/draw pass: a draw is the exact score; a win or a loss narrows the exact pass.
            const LevelOutcome w = run_level(0, -1, 1, false);
            if (w.aborted) {
                stopped(w);
                break;
            }
            result.wld_pass = adopt_wld(w, 0);
            result.last_pass = result.wld_pass;  // it supersedes a selective pass before it
            if (w.score == 0) break;
            if (w.score > 0) {
                a = std::min(w.score - 1, beta - 1);
            } else {
                b = std::max(w.score + 1, alpha + 1);
            }
        }
        const LevelOutcome o = run_level(level, a, b, use_aspiration && b - a > 8);
        if (o.aborted) {
            stopped(o);
            break;
        }
        result.last_pass = adopt(o);
        result.last_pass->level = level;
    }

    if (result.best_move != kPass) result.best_move = best;
    result.score = sign * score;
    result.bound = bound_on_scale(score, alpha, beta, kScoreMax);
    if (sign < 0) {
        result.bound = negated(result.bound);
    }
    result.completed = !aborted;
    if (!aborted) {
        result.pv = read_pv(tt_, P, O, best);
        if (sign < 0) result.pv.insert(result.pv.begin(), kPass);
    }
    result.nodes = nodes;
    result.splits = board.offers();
    result.time = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return result;
}

}  // namespace reversi::endgame
