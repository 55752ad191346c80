#include "engine/endgame/solver.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/moves.hpp"
#include "engine/core/worker_pool.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/root_pass.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/endgame/solve_root.hpp"

namespace reversi::endgame {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kMinEmptiesForThreads = 14;

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

// What makes a request unsolvable here, or nothing.
std::optional<std::string> request_error(const Position& pos, const SolveOptions& options) {
    if (pos.playable != ~Bitboard{0} || pos.rule != ScoreRule::EmptiesToWinner) {
        return "the endgame solver handles the standard 8x8 board only (this position is on a "
               "variant board or uses the disc-difference rule)";
    }
    if ((pos.player & pos.opponent) != 0) return "invalid position: a square holds two discs";
    if (options.alpha < -kScoreMax || options.beta > kScoreMax || options.alpha >= options.beta) {
        return "invalid window (" + std::to_string(options.alpha) + ", " + std::to_string(options.beta) +
               "): need -64 <= alpha < beta <= 64";
    }
    if (options.threads < 1 || options.threads > 256) return "threads must be within 1..256";
    return std::nullopt;
}

// The centre of the aspiration window: an exact table entry, else the caller's guess, else a shallow
// estimate.
int aspiration_guess(EndgameTT& tt, const SolveRoot& root, const SolveOptions& options, bool hinted,
                     std::uint64_t& nodes) {
    EndgameTTData e;
    const int empties = popcount(~(root.P | root.O));
    if (tt.probe(hash_discs(root.P, root.O), empties, e) && e.selectivity_level == 0 && e.lower == e.upper) {
        return e.lower;
    }
    if (hinted && options.guess) return std::clamp(*options.guess, -kScoreMax, kScoreMax);
    return evaluation_search(root.P, root.O, 4, -kScoreMax, kScoreMax, nodes);
}

// The selectivity levels of the root's passes, decreasing, the last one exact (0).
std::vector<int> pass_levels(const SolveOptions& options, bool have_pattern, int empties) {
    std::vector<int> levels;
    if (options.selective && have_pattern && empties >= options.selective_min_empties) {
        for (int level = kMaxSelectivityLevel; level > 0; --level) levels.push_back(level);
    }
    levels.push_back(0);
    return levels;
}

// The root's passes of one solve, in order: the selective ones, the win/loss/draw ones when asked, the
// exact one; each level from a window around the score so far, widened until the score is inside. It
// keeps the best move and score of the last pass that ran to its end and writes the passes' counts
// into the solve's result.
class PassSequence {
public:
    struct Setup {
        EndgameTT& tt;
        SolveControl& control;
        WorkerPool& pool;
        SplitBoard* board;  // null with one thread
        int threads;
        const SolveOptions& options;
        const eval::PatternEvaluator* pattern;
        const SolveRoot& root;
        int empties;
    };

    // `moves`: the root's, best first (not empty); `nodes`: those spent before the passes (the root's
    // ordering and the guess).
    PassSequence(const Setup& setup, std::vector<RootMove> moves, int guess, std::uint64_t nodes, SolveResult& result)
        : setup_(setup),
          moves_(std::move(moves)),
          guess_(guess),
          nodes_(nodes),
          best_(static_cast<Move>(moves_.front().square)),
          result_(result) {}

    void run(const std::vector<int>& levels, bool aspiration) {
        const SolveOptions& options = setup_.options;
        const bool wld_first = options.wld_first && setup_.root.alpha < -1 && setup_.root.beta > 1;
        for (const int level : levels) {
            int a = setup_.root.alpha;
            int b = setup_.root.beta;
            if (level == 0 && wld_first) {
                bool drawn = false;
                if (!run_wld_passes(a, b, drawn) || drawn) return;
            }
            const LevelOutcome o = run_level(level, a, b, aspiration && b - a > 8);
            if (o.aborted) {
                stopped(o);
                return;
            }
            result_.last_pass = adopt(o);
            result_.last_pass->level = level;
        }
    }

    [[nodiscard]] Move best() const noexcept { return best_; }
    [[nodiscard]] int score() const noexcept { return score_; }
    [[nodiscard]] bool aborted() const noexcept { return aborted_; }
    [[nodiscard]] std::uint64_t nodes() const noexcept { return nodes_; }

private:
    struct LevelOutcome {
        bool aborted = false;
        bool resolved = false;  // a pass ran to its end (when aborted: an earlier re-search)
        int score = 0;
        int best_index = 0;
    };

    // Before the exact pass: the selective win/loss/draw pass when asked (what a solve stopped before the
    // next answers), then the exact one, whose answer narrows the exact pass's window (a, b) or, when it
    // is a draw, ends the solve (`drawn`). False when stopped.
    bool run_wld_passes(int& a, int& b, bool& drawn) {
        const SolveOptions& options = setup_.options;
        const bool selective_wld = options.wld_first_level > 0 && options.wld_first_level <= kMaxSelectivityLevel &&
                                   setup_.pattern &&
                                   setup_.empties > std::max(options.probcut_empties, kProbCutMinEmpties);
        if (selective_wld) {
            const LevelOutcome s = run_level(options.wld_first_level, -1, 1, false);
            if (s.aborted) {
                stopped(s);
                return false;
            }
            result_.last_pass = adopt_wld(s, options.wld_first_level);
        }
        const LevelOutcome w = run_level(0, -1, 1, false);
        if (w.aborted) {
            stopped(w);
            return false;
        }
        result_.wld_pass = adopt_wld(w, 0);
        result_.last_pass = result_.wld_pass;  // it supersedes a selective pass before it
        drawn = w.score == 0;
        if (w.score > 0) {
            a = std::min(w.score - 1, setup_.root.beta - 1);
        } else if (w.score < 0) {
            b = std::max(w.score + 1, setup_.root.alpha + 1);
        }
        return true;
    }

    // The passes of one level within (a, b): from a narrow window around the guess when `aspiration`,
    // widened after each fail until the score is inside. A selective pass is not consistent (a fail high
    // then a fail low on the re-search is possible): after three re-searches its score is taken as it
    // is, it is only a guess.
    LevelOutcome run_level(int level, int a, int b, bool aspiration) {
        LevelOutcome out;
        int lo = a;
        int hi = b;
        if (aspiration) {
            const int g = std::clamp(guess_ & ~1, a + 1, b - 1);
            lo = std::max(a, g - 3);
            hi = std::min(b, g + 3);
        }
        int delta = 6;
        int selective_fails = 0;
        for (;;) {
            const auto o = run_pass(level, lo, hi);
            if (o.aborted) {
                out.aborted = true;
                return out;
            }
            out.resolved = true;
            out.score = o.score;
            out.best_index = o.best_index;
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
    }

    // One pass of `level` over the root's moves with the window (lo, hi), counted and, when it ran to its
    // end, reported.
    RootPass::Outcome run_pass(int level, int lo, int hi) {
        const SolveOptions& options = setup_.options;
        RootPass pass(setup_.tt, setup_.control, setup_.pool, setup_.board, setup_.threads, true, nodes_,
                      setup_.pattern, level, std::max(options.probcut_empties, kProbCutMinEmpties),
                      options.split_empties);
        const auto o = pass.run(moves_, lo, hi);
        nodes_ += o.counts.nodes;
        result_.probcuts += o.counts.probcuts;
        result_.scored_children += o.counts.scored_children;
        ++result_.passes;
        if (!o.aborted) {
            report_pass_end(setup_.control, move_at(o.best_index), o.score, lo, hi, level, nodes_);
        }
        return o;
    }

    [[nodiscard]] Move move_at(int index) const noexcept {
        return static_cast<Move>(moves_[static_cast<std::size_t>(index)].square);
    }

    // A stopped level: the score and move of its last finished re-search, if any, are the best found so far.
    void stopped(const LevelOutcome& o) {
        aborted_ = true;
        if (!o.resolved) return;
        score_ = o.score;
        best_ = move_at(o.best_index);
    }

    // A finished level: its score and best move; the next level starts from them.
    ResolvedPass adopt(const LevelOutcome& o) {
        score_ = o.score;
        best_ = move_at(o.best_index);
        guess_ = score_;
        std::rotate(moves_.begin(), moves_.begin() + o.best_index, moves_.begin() + o.best_index + 1);
        return ResolvedPass{0, setup_.root.sign * score_, result_.best_move == kPass ? kPass : best_};
    }

    // A finished win/loss/draw pass of `level`: adopted, but the exact pass's aspiration keeps its estimate.
    ResolvedPass adopt_wld(const LevelOutcome& o, int level) {
        const int kept_guess = guess_;
        ResolvedPass pass = adopt(o);
        guess_ = kept_guess;
        pass.level = level;
        pass.wld_window = true;
        return pass;
    }

    Setup setup_;
    std::vector<RootMove> moves_;
    int guess_;
    std::uint64_t nodes_;
    int score_ = 0;
    Move best_;
    bool aborted_ = false;
    SolveResult& result_;
};

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
    if (auto error = request_error(pos, options)) return make_error(std::move(*error));
    const auto start = Clock::now();
    tt_.new_search();
    const SolveRoot root =
        solve_root(pos.player, pos.opponent, options.alpha, options.beta, legal_moves(pos.player, pos.opponent) != 0,
                   legal_moves(pos.opponent, pos.player) != 0);
    SolveResult result;
    if (root.over) {
        result.score = final_score(root.P, popcount(~(root.P | root.O)));
        result.bound = bound_on_scale(result.score, root.alpha, root.beta, kScoreMax);
        result.nodes = 1;
        return result;
    }
    if (root.passed()) result.best_move = kPass;
    const int empties = popcount(~(root.P | root.O));
    const int threads = empties >= kMinEmptiesForThreads ? options.threads : 1;
    WorkerPool& pool = worker_pool(threads);
    SplitBoard board;

    std::uint64_t nodes = 0;
    // The hints are for the side to move: not when it must pass (the root is then the opponent's).
    const bool hinted = !root.passed();
    std::vector<RootMove> moves =
        order_root_moves(tt_, root.P, root.O, hinted ? options.first_move : kNoMove, nodes, pattern_.get());
    const bool aspiration = options.aspiration && empties >= 16 && root.beta - root.alpha > 8;
    const int guess = aspiration ? aspiration_guess(tt_, root, options, hinted, nodes) : 0;
    const ProgressCallback relay = progress_for_side(progress, root.sign);
    SolveControl control(limits, start, &relay);
    control.count(nodes);

    PassSequence passes(PassSequence::Setup{tt_, control, pool, threads > 1 ? &board : nullptr, threads, options,
                                            pattern_.get(), root, empties},
                        std::move(moves), guess, nodes, result);
    passes.run(pass_levels(options, pattern_ != nullptr, empties), aspiration);

    if (result.best_move != kPass) result.best_move = passes.best();
    result.score = root.sign * passes.score();
    result.bound = bound_on_scale(passes.score(), root.alpha, root.beta, kScoreMax);
    if (root.passed()) result.bound = negated(result.bound);
    result.completed = !passes.aborted();
    if (result.completed) {
        result.pv = read_pv(tt_, root.P, root.O, passes.best());
        if (root.passed()) result.pv.insert(result.pv.begin(), kPass);
    }
    result.nodes = passes.nodes();
    result.splits = board.offers();
    result.time = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    return result;
}

}  // namespace reversi::endgame
