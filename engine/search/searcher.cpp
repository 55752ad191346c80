// The Searcher facade: iterative deepening over the generic algorithms (engine/search/run_algorithm.hpp)
// on Othello positions, with the session's transposition table, aspiration windows, MultiPV, lazy-SMP
// helper threads, and the exact endgame solve behind solve_exact().
//
// Iterations. Depth 1, 2, ... up to the depth limit (or to the end of the game). An iteration at a depth
// >= the number of empty squares is the exact solve: the dedicated endgame solver (engine/endgame/) in
// the engine's own configuration (exact_solve.hpp says when), else the generic search (solve_exact). With `solve`/`wld`
// the midgame iterations stop at depth 8 (they only fill the table and the move order) and the next iteration is the
// solve. IterativeDeepening = off runs the last iteration alone. The dedicated solver takes the context's own
// limits (stop flag, deadline, the rest of the node budget) and checks them itself; its progress (root moves
// proved, pass bounds, a report a second) reaches the on_iteration callback as IterationReports at depth =
// empties (solve_progress.hpp). A timed move (a time limit, no depth, no solve asked) solves win/loss/draw
// first and keeps a proven win when the exact pass is stopped (ExactSolveRequest::wld_first; the result is
// then reported as wld, score +1). `infinite` lifts the node and time limits; the search still returns when the
// last depth is done (the protocol waits for `stop` before it answers).
//
// Aspiration windows (algorithms that take a window: alphabeta, alphabeta-hard, negascout), from the
// second iteration on: the window is [prev - 2, prev + 2] around a previous iteration's score (the one
// two iterations back, of the same depth parity, from the third iteration on: IterationScores); on a
// fail low the lower edge moves to prev - 4, then prev - 8, prev - 16, then -infinity (the upper edge
// likewise on a fail high); each failure doubles the half-width. The other algorithms always search the
// full range (MTD(f) takes the same score as its first guess).
//
// Selective search: the iterations that are not exact run the selective NegaScout (Multi-ProbCut,
// engine/search/probcut_search.hpp) when options.selectivity < 100, the algorithm is negascout, the
// pattern evaluation is in use on 8x8 with a calibration, and the search is not a solve/wld. Exact
// iterations never are, and their table probes ignore the selective entries' bounds.
//
// Threads > 1: helper threads run the same iterative deepening on their own copies of the position and
// share only the transposition table (lazy SMP); odd helpers start one ply deeper. The main thread's
// iterations are the ones reported; the result's node and leaf counts include the helpers'. The helpers
// are tasks on the Searcher's worker pool (engine/core/worker_pool.hpp: Threads - 1 threads, created when
// Threads is set, parked between searches), which the endgame solver borrows for its splits. Before a
// dedicated exact solve the helpers are stopped and waited for, so the solver finds every worker free; a
// helper that no worker started is run (and returns at once) by the search's thread at the join.
//
// Time: no new iteration after the soft limit (scaled by SoftLimitScale), and none that the
// IterationForecast predicts would still run at the hard limit (engine/search/soft_limit.hpp).
#include "engine/search/searcher.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "engine/core/worker_pool.hpp"
#include "engine/eval/heuristic.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/search/exact_solve.hpp"
#include "engine/search/move_ordering.hpp"
#include "engine/search/probcut_search.hpp"
#include "engine/search/run_algorithm.hpp"
#include "engine/search/soft_limit.hpp"
#include "engine/search/transposition_table.hpp"

namespace reversi {

namespace {

// The embedded default weights, decoded once per process (immutable afterwards) and shared by sessions.
const Expected<eval::PatternEvaluator>& embedded_pattern() {
    static const Expected<eval::PatternEvaluator> pattern = eval::PatternEvaluator::embedded_default();
    return pattern;
}

}  // namespace

struct Searcher::Impl {
    // Threads - 1 workers for the lazy-SMP helpers and the endgame solver's splits; declared before
    // `endgame`, which borrows it, so that it outlives the solver.
    WorkerPool pool;
    TranspositionTable tt;
    SearchOptions options;
    HeuristicEvaluator heuristic;
    std::optional<eval::PatternEvaluator> pattern;
    std::string evaluation_status;
    // The exact solver's own table, allocated on the first dedicated solve with the size of `tt`.
    std::unique_ptr<endgame::EndgameSolver> endgame;
    std::optional<eval::ProbCutModel> probcut_override;  // set_probcut_model()

    explicit Impl(std::size_t mib) : tt(mib) {
        const auto& embedded = embedded_pattern();
        if (embedded) {
            pattern = *embedded;
            evaluation_status = "pattern weights: embedded default";
        } else {
            evaluation_status = "pattern weights unusable, heuristic evaluation in use: " + embedded.error().message;
        }
    }

    // The trained evaluation when a search of `pos` uses it (Eval pattern, usable weights, 8x8), else
    // nullptr: it then evaluates, orders (MoveOrdering::Evaluated) and calibrates Multi-ProbCut.
    [[nodiscard]] const eval::PatternEvaluator* pattern_for(const Position& pos) const noexcept {
        if (options.evaluation != EvalKind::Pattern || !pattern || pos.playable != ~Bitboard{0}) return nullptr;
        return &*pattern;
    }
    [[nodiscard]] const Evaluator& evaluator_for(const Position& pos) const noexcept {
        if (const auto* p = pattern_for(pos)) return *p;
        return heuristic;
    }
    [[nodiscard]] const eval::ProbCutModel* probcut_model() const noexcept {
        if (probcut_override) return probcut_override->empty() ? nullptr : &*probcut_override;
        if (pattern && pattern->weights().probcut && !pattern->weights().probcut->empty()) {
            return &*pattern->weights().probcut;
        }
        return nullptr;
    }
    // The Multi-ProbCut setting of a search (inactive when the search is not selective).
    [[nodiscard]] ProbCut probcut_for(const Position& pos, const SearchLimits& limits) const noexcept {
        if (options.selectivity >= kMaxSelectivityPercent || options.algorithm != Algorithm::NegaScout ||
            !pattern_for(pos) || limits.solve || limits.wld) {
            return ProbCut{};
        }
        return make_probcut(probcut_model(), options.selectivity);
    }
    endgame::EndgameSolver& endgame_solver() {
        if (!endgame) endgame = std::make_unique<endgame::EndgameSolver>(tt.size_mib(), &pool);
        return *endgame;
    }
};

Searcher::Searcher(std::size_t hash_mib) : impl_(std::make_unique<Impl>(hash_mib)) {}
Searcher::~Searcher() = default;
bool Searcher::set_hash_size(std::size_t mib) {
    if (!impl_->tt.resize(mib)) return false;
    if (impl_->endgame && !impl_->endgame->set_hash_size(mib)) impl_->endgame.reset();  // reallocated on use
    return true;
}
std::size_t Searcher::hash_size() const noexcept { return impl_->tt.size_mib(); }
void Searcher::set_options(const SearchOptions& options) {
    impl_->options = options;
    impl_->options.threads = std::clamp(options.threads, 1, 256);
    impl_->options.multipv = std::clamp(options.multipv, 1, 64);
    impl_->options.selectivity = std::clamp(options.selectivity, kMinSelectivityPercent, kMaxSelectivityPercent);
    (void)impl_->pool.resize(impl_->options.threads - 1);  // never during a search (searcher.hpp)
}
void Searcher::set_threads(int threads) {
    impl_->options.threads = std::clamp(threads, 1, 256);
    (void)impl_->pool.resize(impl_->options.threads - 1);
}
const WorkerPool& Searcher::worker_pool() const noexcept { return impl_->pool; }
void Searcher::set_probcut_model(std::optional<eval::ProbCutModel> model) {
    impl_->probcut_override = std::move(model);
}
const eval::ProbCutModel* Searcher::probcut_model() const noexcept { return impl_->probcut_model(); }
const SearchOptions& Searcher::options() const noexcept { return impl_->options; }
void Searcher::prepare_endgame() { (void)impl_->endgame_solver(); }
bool Searcher::endgame_ready() const noexcept { return impl_->endgame != nullptr; }
void Searcher::clear() {
    impl_->tt.clear();
    if (impl_->endgame) impl_->endgame->clear();
}

Expected<std::string> Searcher::load_weights(const std::string& path) {
    auto loaded = eval::PatternEvaluator::from_file(path);
    if (!loaded) return loaded.error();
    use_pattern_weights(std::move(*loaded), path);
    return impl_->evaluation_status;
}

void Searcher::use_pattern_weights(eval::PatternEvaluator pattern, const std::string& source) {
    impl_->pattern = std::move(pattern);
    impl_->evaluation_status = "pattern weights: " + source;
}

std::string_view Searcher::evaluation_name(const Position& pos) const noexcept {
    return impl_->evaluator_for(pos).name();
}

const std::string& Searcher::evaluation_status() const noexcept { return impl_->evaluation_status; }

namespace {

using Clock = std::chrono::steady_clock;

// The horizon's evaluation: the trained one reads the instances' indices the state carries.
struct EvaluatorCall {
    const Evaluator* evaluator;
    const eval::PatternEvaluator* pattern;  // the same evaluator when it is the trained one, else nullptr
    int operator()(const OthelloState& s) const noexcept {
        return pattern ? eval::units_to_discs(pattern_units(*pattern, s)) : evaluator->evaluate(s.pos);
    }
    // The same for a state whose side to move has the legal moves `moves` (not computed again).
    int operator()(const OthelloState& s, Bitboard moves) const noexcept {
        return pattern ? eval::units_to_discs(pattern_units(*pattern, s, moves)) : evaluator->evaluate(s.pos);
    }
};
using OthelloContext = SearchContext<OthelloState, EvaluatorCall, OthelloOrder>;

constexpr int kInfinity = OthelloContext::kInfinity;
constexpr int kToTheEnd = 64;      // a depth that reaches the end of every game
constexpr int kSolvePreDepth = 8;  // last midgame iteration before a requested solve
// Without a depth limit (timed play, analysis), the exact solve follows the midgame iteration at
// empties - kSolveGap instead of empties - 1: a selective search that close to the end costs about as
// much as the solve, which gives the exact score (a stopped solve leaves the previous iteration's move).
constexpr int kSolveGap = 6;

// The exact endgame solve: the one place to plug in a dedicated endgame solver. Searches `root` to the
// end of the game with `algorithm`; with `wld` only the sign of the score is established (null window
// around 0 for the window algorithms) and returned as -1, 0 or +1.
RootSearch solve_exact(OthelloContext& ctx, const OthelloState& root, Algorithm algorithm, bool wld) {
    if (!wld) return run_algorithm(algorithm, ctx, root, kToTheEnd, -kInfinity, kInfinity, 0);
    RootSearch r = takes_window(algorithm) ? run_algorithm(algorithm, ctx, root, kToTheEnd, -1, 1, 0)
                                           : run_algorithm(algorithm, ctx, root, kToTheEnd, -kInfinity, kInfinity, 0);
    r.value = (r.value > 0) - (r.value < 0);
    return r;
}

// The exact iteration through the dedicated endgame solver (exact_solve.hpp): the solver, where the
// search started, and where its progress goes.
struct DedicatedSolve {
    std::function<endgame::EndgameSolver&()> solver;  // allocates the solver's table on first use
    Clock::time_point start;
    const SearchCallbacks* callbacks = nullptr;
};

// The dedicated solve of `root` under the context's own limits (stop flag, deadline, the rest of the node
// budget); its nodes are added to the context's, and a stopped solve aborts the context like a stopped
// iteration.
RootSearch solve_dedicated(OthelloContext& ctx, const OthelloState& root, const SearchOptions& options, bool wld,
                           bool wld_first, const DedicatedSolve& dedicated, Move first_move, std::optional<int> guess) {
    ExactSolveRequest request;
    request.wld = wld;
    request.wld_first = wld_first;
    request.first_move = first_move;
    request.guess = guess;
    request.threads = options.threads;
    request.limits.stop = ctx.stop;
    if (ctx.deadline != Clock::time_point::max()) request.limits.deadline = ctx.deadline;
    if (ctx.node_limit != std::numeric_limits<std::uint64_t>::max()) {
        request.limits.nodes = ctx.node_limit > ctx.nodes ? ctx.node_limit - ctx.nodes : 1;
    }
    if (dedicated.callbacks && dedicated.callbacks->on_iteration) request.on_report = dedicated.callbacks->on_iteration;
    request.nodes_before = ctx.nodes;
    request.search_start = dedicated.start;
    request.hashfull = ctx.tt ? ctx.tt->hashfull() : 0;
    const ExactSolveOutcome o = run_endgame_solver(dedicated.solver(), root.pos, request);
    ctx.nodes += o.nodes;
    RootSearch r;
    r.value = o.value;
    r.best_move = o.best_move;
    r.complete = o.complete;
    r.pv = o.pv;
    r.selectivity = o.selectivity;
    r.wld = o.wld && !wld;
    if (o.selectivity < kMaxSelectivityPercent) r.complete = true;  // stopped, answered by a selective pass
    if (!r.complete) ctx.aborted = true;
    return r;
}

// The scores of one line's completed iterations, for the next iteration's window. An Othello evaluation
// swings with the parity of the depth (the side that moved last at the horizon is favoured: scores of
// consecutive iterations often differ by 2-4 discs), so the window is centred on the score two iterations
// back, of the same parity, once there is one: on 60 game positions searched to depth 14 and 15 (docs/search.md)
// 1.8 % and 4.8 % fewer nodes than around the last score.
class IterationScores {
public:
    [[nodiscard]] std::optional<int> guess() const noexcept { return before_last_ ? before_last_ : last_; }
    void push(int score) noexcept {
        before_last_ = last_;
        last_ = score;
    }

private:
    std::optional<int> last_;
    std::optional<int> before_last_;
};

std::vector<Move> legal_root_moves(const OthelloState& root, const std::vector<Move>& wanted) {
    MoveList list;
    root.generate_moves(list);
    std::vector<Move> moves;
    for (Move m : list) {
        if (wanted.empty() || std::find(wanted.begin(), wanted.end(), m) != wanted.end()) moves.push_back(m);
    }
    if (moves.empty()) moves.assign(list.begin(), list.end());  // no wanted move is legal: search them all
    return moves;
}

// One thread's iterative deepening.
class Driver {
public:
    Driver(OthelloContext& ctx, const SearchOptions& options, const SearchLimits& limits, const OthelloState& root,
           std::vector<Move> root_moves, const ProbCut& probcut, const DedicatedSolve* dedicated = nullptr)
        : ctx_(ctx),
          options_(options),
          limits_(limits),
          root_(root),
          root_moves_(std::move(root_moves)),
          legal_count_(legal_root_moves(root, {}).size()),
          empties_(root.pos.empty_count()),
          probcut_(probcut),
          dedicated_(dedicated) {}

    // The depths to iterate, in order.
    [[nodiscard]] std::vector<int> schedule(int first_depth) const {
        std::vector<int> depths;
        const bool solve = limits_.solve || limits_.wld;
        const int last = solve ? empties_ : std::min(limits_.depth.value_or(kToTheEnd), empties_);
        int midgame_last = solve ? std::min(kSolvePreDepth, empties_ - 1) : last;
        if (!solve && !limits_.depth) midgame_last = std::min(last - 1, std::max(kSolvePreDepth, empties_ - kSolveGap));
        if (options_.iterative_deepening) {
            for (int d = first_depth; d <= midgame_last && d < last; ++d) depths.push_back(d);
        }
        depths.push_back(std::max(last, 1));
        return depths;
    }

    // One iteration at `depth` for the allowed root moves; `prev` is the window's centre (IterationScores).
    RootSearch iterate(int depth, const std::vector<Move>& allowed, std::optional<int> prev) {
        ctx_.restrict_root(root_, allowed, legal_count_);
        ctx_.selective = false;
        if (depth >= empties_) {
            if (dedicated_) {
                return solve_dedicated(ctx_, root_, options_, limits_.wld, timed_play(), *dedicated_, last_best_,
                                       last_score_);
            }
            return solve_exact(ctx_, root_, options_.algorithm, limits_.wld);
        }
        const Algorithm a = options_.algorithm;
        const bool selective = is_selective_depth(depth);
        auto root_search = [&](int alpha, int beta, int guess) {
            if (selective) return run_probcut_negascout(ctx_, probcut_, root_, depth, alpha, beta);
            return run_algorithm(a, ctx_, root_, depth, alpha, beta, guess);
        };
        if (!prev || !options_.aspiration || !takes_window(a)) {
            return root_search(-kInfinity, kInfinity, prev.value_or(0));
        }
        int delta = 2;
        int alpha = std::max(-kInfinity, *prev - delta);
        int beta = std::min(kInfinity, *prev + delta);
        for (;;) {
            RootSearch r = root_search(alpha, beta, *prev);
            if (!r.complete) return r;
            if (r.value <= alpha && alpha > -kInfinity) {
                delta *= 2;
                alpha = delta > 16 ? -kInfinity : std::max(-kInfinity, *prev - delta);
            } else if (r.value >= beta && beta < kInfinity) {
                delta *= 2;
                beta = delta > 16 ? kInfinity : std::min(kInfinity, *prev + delta);
            } else {
                return r;
            }
        }
    }

    // The last completed iteration's best move and score: the dedicated solve (always the last iteration)
    // searches the move first and centres its window on the score.
    void completed_iteration(Move best, int score) noexcept {
        last_best_ = best;
        last_score_ = score;
    }

    [[nodiscard]] bool is_exact_depth(int depth) const noexcept { return depth >= empties_; }
    // A timed move (no depth, no solve asked): its solve proves win/loss/draw before the exact score.
    [[nodiscard]] bool timed_play() const noexcept {
        return !limits_.depth && !limits_.solve && !limits_.wld && !limits_.infinite &&
               (limits_.soft_time || limits_.hard_time);
    }
    [[nodiscard]] bool is_selective_depth(int depth) const noexcept {
        return probcut_.active() && options_.algorithm == Algorithm::NegaScout && !is_exact_depth(depth);
    }

private:
    OthelloContext& ctx_;
    const SearchOptions& options_;
    const SearchLimits& limits_;
    OthelloState root_;
    std::vector<Move> root_moves_;
    std::size_t legal_count_;  // of the root
    int empties_;
    ProbCut probcut_;
    const DedicatedSolve* dedicated_;
    Move last_best_ = kNoMove;
    std::optional<int> last_score_;
};

// The principal variation: the best move, then the table's moves while they are legal.
std::vector<Move> principal_variation(const TranspositionTable* tt, const OthelloState& root, Move best, int depth) {
    std::vector<Move> pv;
    if (best == kNoMove) return pv;
    pv.push_back(best);
    OthelloState s = root.play(best);
    int plies = best == kPass ? depth : depth - 1;
    while (tt && plies > 0 && pv.size() < 80) {
        TTData d;
        if (!tt->probe(tt_key(s), d) || d.move == kNoMove) break;
        MoveList list;
        s.generate_moves(list);
        if (std::find(list.begin(), list.end(), d.move) == list.end()) break;
        pv.push_back(d.move);
        if (d.move != kPass) --plies;
        s = s.play(d.move);
    }
    return pv;
}

std::chrono::milliseconds elapsed(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

IterationForecast::Micros micros_since(Clock::time_point start) {
    return std::chrono::duration_cast<IterationForecast::Micros>(Clock::now() - start);
}

// The first of `moves` in the search's own order (the answer before an iteration has completed).
Move first_in_order(const OthelloOrder& order, const OthelloState& root, const std::vector<Move>& moves) {
    MoveList list;
    for (Move m : moves) list.push_back(m);
    order(root, list, kNoMove, 2);
    return list[0];
}

// What the lazy-SMP helpers search: the main thread's position, moves and limits.
struct HelperSearch {
    const SearchOptions& options;
    const SearchLimits& limits;
    const OthelloState& root;
    const std::vector<Move>& root_moves;
    const ProbCut& probcut;
    bool dedicated_solve;  // the exact iteration is the dedicated solver's, which splits on its own
};

// The lazy-SMP helpers of one search: `count` tasks on the pool, each its own iterative deepening (odd
// helpers one ply deeper) with its own context, sharing only the table. stop() (or the destructor)
// stops them and waits for them; a helper that no worker has started then returns at once.
class LazySmpHelpers {
public:
    // `prototype`: the context each helper copies (its stop flag is the helpers' own).
    LazySmpHelpers(WorkerPool& pool, int count, const OthelloContext& prototype)
        : contexts_(static_cast<std::size_t>(count), prototype), tasks_(pool) {
        for (OthelloContext& c : contexts_) c.stop = &stop_;
    }
    LazySmpHelpers(const LazySmpHelpers&) = delete;
    LazySmpHelpers& operator=(const LazySmpHelpers&) = delete;
    ~LazySmpHelpers() { stop(); }

    // `search` must outlive the helpers (until stop()).
    void start(const HelperSearch& search) {
        search_.emplace(search);
        for (std::size_t i = 0; i < contexts_.size(); ++i) {
            tasks_.run([this, i] { iterate(contexts_[i], 1 + static_cast<int>(i % 2)); });
        }
    }

    void stop() {
        stop_.store(true, std::memory_order_relaxed);
        tasks_.wait();
    }

    // After stop(): the helpers' counts.
    [[nodiscard]] std::uint64_t nodes() const noexcept {
        std::uint64_t n = 0;
        for (const auto& c : contexts_) n += c.nodes;
        return n;
    }
    [[nodiscard]] std::uint64_t leaves() const noexcept {
        std::uint64_t n = 0;
        for (const auto& c : contexts_) n += c.leaves;
        return n;
    }

private:
    void iterate(OthelloContext& ctx, int first_depth) {
        if (stop_.load(std::memory_order_relaxed)) return;  // started after the search ended
        const HelperSearch& s = *search_;
        Driver driver(ctx, s.options, s.limits, s.root, s.root_moves, s.probcut);
        IterationScores scores;
        for (int depth : driver.schedule(first_depth)) {
            if (s.dedicated_solve && driver.is_exact_depth(depth)) break;
            const RootSearch r = driver.iterate(depth, s.root_moves, scores.guess());
            if (!r.complete) break;
            scores.push(r.value);
        }
    }

    std::atomic<bool> stop_{false};
    std::optional<HelperSearch> search_;
    std::vector<OthelloContext> contexts_;
    TaskGroup tasks_;  // after what its tasks use: its destructor waits for them
};

// The main thread's iterations: the MultiPV lines of each, their reports, the time rules between them
// (the soft limit, scaled while the best move is in doubt, and the forecast of the next iteration), and
// the search's result, which is always that of the last completed iteration.
class MainIterations {
public:
    struct Setup {
        Driver& driver;
        OthelloContext& ctx;
        const SearchOptions& options;
        const SearchLimits& limits;
        const OthelloState& root;
        const OthelloOrder& order;
        const TranspositionTable* tt;
        const ProbCut& probcut;
        const SearchCallbacks& callbacks;
        Clock::time_point start;
    };

    MainIterations(const Setup& setup, SearchResult& result)
        : s_(setup), scores_(static_cast<std::size_t>(setup.options.multipv)), result_(result) {}

    // Whether the iteration at `depth` may start: before the soft limit, and (a midgame iteration) when
    // the forecast says it would end before the hard limit. The first iteration always starts, and the
    // solve's cost is not that of a midgame iteration: it is always tried.
    [[nodiscard]] bool may_start(int depth) const {
        const SearchLimits& limits = s_.limits;
        if (limits.infinite || !limits.soft_time || result_.depth == 0) return true;
        const auto soft =
            limits.hard_time ? soft_scale_.scaled(*limits.soft_time, *limits.hard_time) : *limits.soft_time;
        if (elapsed(s_.start) >= soft) return false;
        return !limits.hard_time || s_.driver.is_exact_depth(depth) ||
               forecast_.fits(micros_since(s_.start), *limits.hard_time);
    }

    // The iteration at `depth`, one line per MultiPV rank over `root_moves`; false when it was stopped.
    bool run(int depth, const std::vector<Move>& root_moves, Clock::time_point iteration_start) {
        std::vector<Move> remaining = root_moves;
        for (int line = 1; line <= s_.options.multipv && !remaining.empty(); ++line) {
            s_.ctx.max_ply = 0;
            IterationScores& line_scores = scores_[static_cast<std::size_t>(line - 1)];
            RootSearch r = s_.driver.iterate(depth, remaining, line_scores.guess());
            // Stopped: the result stays that of the last completed iteration (move, score and PV together).
            // A stopped iteration's best-so-far root move is not reported: inside an aspiration window it
            // may only have beaten a failed bound, and its score is unknown.
            if (!r.complete) return false;
            if (r.best_move == kNoMove) r.best_move = first_in_order(s_.order, s_.root, remaining);
            line_scores.push(r.value);
            IterationReport report = line_report(depth, line, r);
            if (line == 1) adopt(depth, r, report);
            report.soft_limit_factor = soft_scale_.factor();
            if (s_.callbacks.on_iteration) s_.callbacks.on_iteration(report);
            remaining.erase(std::remove(remaining.begin(), remaining.end(), r.best_move), remaining.end());
        }
        forecast_.push(micros_since(iteration_start));
        return true;
    }

private:
    // The report of MultiPV line `line` of a completed iteration at `depth`.
    IterationReport line_report(int depth, int line, const RootSearch& r) const {
        const bool exact = s_.driver.is_exact_depth(depth) && r.selectivity == kMaxSelectivityPercent;
        IterationReport report;
        report.depth = depth;
        report.selective_depth = std::max(depth, s_.ctx.max_ply);
        report.score = r.value;
        report.exact = exact && !s_.limits.wld && !r.wld;
        report.wld = exact && (s_.limits.wld || r.wld);
        report.multipv = line;
        report.nodes = s_.ctx.nodes;
        report.leaves = s_.ctx.leaves;
        report.time = elapsed(s_.start);
        report.hashfull = s_.tt ? s_.tt->hashfull() : 0;
        report.selectivity = s_.driver.is_selective_depth(depth) ? s_.probcut.percent : r.selectivity;
        report.pv = r.pv.empty() ? principal_variation(s_.tt, s_.root, r.best_move, depth) : r.pv;
        return report;
    }

    // The first line of a completed iteration: the search's result, the solve's start and the soft limit.
    void adopt(int depth, const RootSearch& r, const IterationReport& report) {
        s_.driver.completed_iteration(r.best_move, r.value);  // the solve, when next, starts from it
        soft_scale_.push(depth, r.best_move);
        result_.best_move = r.best_move;
        result_.score = r.value;
        result_.exact = report.exact;
        result_.depth = depth;
        result_.selectivity = report.selectivity;
        result_.pv = report.pv;
    }

    Setup s_;
    std::vector<IterationScores> scores_;
    SoftLimitScale soft_scale_;   // the soft limit, extended while the best move is in doubt
    IterationForecast forecast_;  // no iteration that would be stopped at the hard limit
    SearchResult& result_;
};

}  // namespace

SearchResult Searcher::search(const Position& pos, const SearchLimits& limits, const SearchCallbacks& callbacks,
                              const std::atomic<bool>& stop) {
    const auto start = Clock::now();
    const SearchOptions& options = impl_->options;
    const eval::PatternEvaluator* pattern = impl_->pattern_for(pos);
    const OthelloState root(pos, pattern != nullptr);  // with the indices the trained evaluation reads
    TranspositionTable* tt = options.use_tt ? &impl_->tt : nullptr;
    impl_->tt.new_generation();

    SearchResult result;
    result.algorithm = options.algorithm;
    if (pos.is_over()) {
        result.score = pos.final_score();
        result.exact = true;
        result.time = elapsed(start);
        return result;
    }
    const std::vector<Move> root_moves = legal_root_moves(root, limits.search_moves);
    const OthelloOrder order(options.ordering, options.fixed_order, pattern);
    const EvaluatorCall eval{&impl_->evaluator_for(pos), pattern};
    const ProbCut probcut = impl_->probcut_for(pos, limits);
    MoveList legal;
    root.generate_moves(legal);
    const bool dedicated_solve =
        endgame_solver_applies(pos, options, root_moves.size() == static_cast<std::size_t>(legal.size()));

    OthelloContext ctx{eval, order, tt, &stop};
    if (!limits.infinite) {
        if (limits.nodes) ctx.node_limit = *limits.nodes;
        if (limits.hard_time) ctx.deadline = start + *limits.hard_time;
    }
    LazySmpHelpers helpers(impl_->pool, options.threads - 1, OthelloContext{eval, order, tt, nullptr});
    helpers.start(HelperSearch{options, limits, root, root_moves, probcut, dedicated_solve});

    // Fallback move before anything is searched: the first move in the search's own order.
    result.best_move = first_in_order(order, root, root_moves);
    result.pv = {result.best_move};

    std::optional<DedicatedSolve> dedicated;
    if (dedicated_solve) {
        dedicated =
            DedicatedSolve{[this]() -> endgame::EndgameSolver& { return impl_->endgame_solver(); }, start, &callbacks};
    }
    Driver driver(ctx, options, limits, root, root_moves, probcut, dedicated ? &*dedicated : nullptr);
    MainIterations main(MainIterations::Setup{driver, ctx, options, limits, root, order, tt, probcut, callbacks, start},
                        result);
    for (int depth : driver.schedule(1)) {
        if (!main.may_start(depth)) break;
        const auto iteration_start = Clock::now();
        // The solver splits on the same pool: the helpers' midgame iterations would only take its workers.
        if (dedicated && driver.is_exact_depth(depth)) helpers.stop();
        if (!main.run(depth, root_moves, iteration_start)) break;
    }
    helpers.stop();
    result.nodes = ctx.nodes + helpers.nodes();
    result.leaves = ctx.leaves + helpers.leaves();
    result.time = elapsed(start);
    return result;
}

}  // namespace reversi
