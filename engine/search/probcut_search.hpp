#pragma once
// The engine's selective search: NegaScout (algorithms.hpp's negascout_with, the same body as negascout)
// with the Multi-ProbCut (Buro 1997/1999) cut policy, for Othello positions, written out for speed as
// selective_negascout (below). This is the search the Searcher runs in timed play and analysis
// (searcher.cpp says when).
//
// Multi-ProbCut. The calibration (engine/eval/probcut_model.hpp, stored with the pattern weights) gives,
// for a node's phase and remaining depth d, a shallow depth s < d and the line deep ~ a * shallow + b with
// the residual's standard deviation sigma (discs). With t the confidence quantile (below), at a node
// that is not the root and after the table probe:
//   fail high: when beta can be reached, bound = ceil((beta + t * sigma - b) / a); a null-window search
//              (bound - 1, bound) at depth s that returns >= bound predicts value >= beta with the
//              confidence: the node returns beta (a lower bound, stored as selective).
//   fail low:  bound = floor((alpha - t * sigma - b) / a); a null-window search (bound, bound + 1) at
//              depth s that returns <= bound: the node returns alpha (an upper bound).
// A test is skipped when its bound lies outside the score range (the shallow search could not fail, or
// could not do otherwise). The shallow searches are this same selective function: they may cut in turn
// (their own depth has its own calibration line, when s >= ProbCutModel::kMinDepth). At node depth 2 the
// shallow "search" has depth 0: the node's static evaluation, made once for both tests (the node is
// entered once more for it, like a shallow search).
//
// Confidence. `selectivity` p in percent is the two-sided normal confidence, as the levels Edax shows
// (73, 87, 95, 98, 99 %): t = Phi^-1((1 + p/100) / 2), so 73 -> 1.10, 87 -> 1.51, 95 -> 1.96,
// 98 -> 2.33, 99 -> 2.58. Under the normal model a single cut is wrong with probability (1 - p/100) / 2.
// p = 100 is off (t infinite: no test is made and the search is exactly negascout).
//
// Transposition table: the caller's context has `selective` set, so every entry written is flagged and
// the non-selective searches (exact solves) never take a cutoff from it.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "engine/eval/probcut_fit.hpp"
#include "engine/eval/probcut_model.hpp"
#include "engine/games/othello_game.hpp"
#include "engine/search/algorithms.hpp"
#include "engine/search/run_algorithm.hpp"
#include "engine/search/search_context.hpp"

namespace reversi {

// t for a confidence of `percent` (two-sided normal quantile); +infinity for percent >= 100.
[[nodiscard]] double selectivity_quantile(int percent) noexcept;

// The shipped calibration ends at node depth 14 (13/7 and 14/6 since the thirty-third and thirty-fourth
// sessions: 700 positions searched to 13 and 14 plies, 2,524 and 5,652 s of CPU). A node deeper
// than a phase's calibration borrows the deepest calibrated line of the same depth parity with the
// shallow depth probcut_shallow_depth(depth) and sigma times kExtrapolatedSigma: the residual sigma
// hardly changes with depth when the shallow search is half as deep (docs/eval.md "Multi-ProbCut
// calibration"), and the margin covers what the borrowed line cannot know. Without it nodes beyond the
// calibration were never cut: time to depth 16 -35 %, and in games at equal time against NTest
// (docs/eval.md, g4-g6) +19 Elo over 1,200 games with 1.25 (1.0: -0.9 in g4). With the lines of 13 and
// 14 plies to borrow, 1.0 took 5 % fewer nodes to depth 18 but more time (docs/eval.md, "Node depth 14").
inline constexpr double kExtrapolatedSigma = 1.25;

// A node tested on its static evaluation (shallow depth 0: node depth 2) uses its fitted sigma times
// kStaticCutSigma, a margin chosen by games rather than by the fit: against NTest at equal time the wider
// margin scored +17, +25 and -16 Elo against the fitted one in three gauntlets of 400 games each (+9 over
// 1,200: neutral), while cutting more (also at node depth 1) lost 34 (docs/eval.md, twenty-seventh session).
inline constexpr double kStaticCutSigma = 1.25;

// The deepest calibrated node depth of `phase`; 0 when the phase has no line.
[[nodiscard]] inline int deepest_calibrated_depth(const eval::ProbCutModel& model, int phase) noexcept {
    for (int d = eval::ProbCutModel::kMaxDepth; d >= eval::ProbCutModel::kMinDepth; --d) {
        if (model.line(phase, d) != nullptr) return d;
    }
    return 0;
}

// The line for a node of `depth` plies in `phase` whose deepest calibrated depth is `deepest`: the
// calibrated one; beyond `deepest`, the extrapolation above; otherwise (a phase or depth without
// calibration) nullopt.
[[nodiscard]] inline std::optional<eval::ProbCutLine> probcut_line(const eval::ProbCutModel& model, int phase,
                                                                   int depth, int deepest) noexcept {
    if (depth <= deepest || deepest == 0) {
        const eval::ProbCutLine* line = model.line(phase, depth);
        if (line == nullptr) return std::nullopt;
        eval::ProbCutLine used = *line;
        if (used.shallow == 0) used.sigma = static_cast<float>(static_cast<double>(used.sigma) * kStaticCutSigma);
        return used;
    }
    for (int d = (deepest - depth) % 2 == 0 ? deepest : deepest - 1; d >= eval::ProbCutModel::kMinDepth; d -= 2) {
        if (const eval::ProbCutLine* line = model.line(phase, d)) {
            eval::ProbCutLine borrowed = *line;
            borrowed.shallow = static_cast<std::int8_t>(eval::probcut_shallow_depth(depth));
            borrowed.sigma = static_cast<float>(static_cast<double>(borrowed.sigma) * kExtrapolatedSigma);
            return borrowed;
        }
    }
    return std::nullopt;
}

[[nodiscard]] inline std::optional<eval::ProbCutLine> probcut_line(const eval::ProbCutModel& model, int phase,
                                                                   int depth) noexcept {
    return probcut_line(model, phase, depth, deepest_calibrated_depth(model, phase));
}

struct ProbCut {
    const eval::ProbCutModel* model = nullptr;
    double t = std::numeric_limits<double>::infinity();
    int percent = kMaxSelectivityPercent;
    std::array<int, eval::kPhaseCount> deepest{};  // deepest_calibrated_depth of each phase, once per search

    [[nodiscard]] bool active() const noexcept { return model != nullptr && std::isfinite(t); }
};

[[nodiscard]] inline ProbCut make_probcut(const eval::ProbCutModel* model, int percent) noexcept {
    ProbCut pc;
    pc.percent = std::clamp(percent, kMinSelectivityPercent, kMaxSelectivityPercent);
    pc.t = selectivity_quantile(pc.percent);
    pc.model = model != nullptr && !model->empty() ? model : nullptr;
    if (pc.model != nullptr) {
        for (int phase = 0; phase < eval::kPhaseCount; ++phase) {
            pc.deepest[static_cast<std::size_t>(phase)] = deepest_calibrated_depth(*pc.model, phase);
        }
    }
    return pc;
}

// The Multi-ProbCut cut policy of negascout_with (engine/search/algorithms.hpp).
struct MultiProbCut {
    const ProbCut* pc = nullptr;

    template <class Ctx>
    bool try_cut(Ctx& ctx, const OthelloState& s, int depth, int alpha, int beta, int ply, int& value) const;
};

template <class Ctx>
int selective_negascout(Ctx& ctx, const ProbCut& pc, const OthelloState& s, int depth, int alpha, int beta, int ply);

namespace detail {

// What negascout_with does with a child at depth 0 (a horizon or final leaf), without its move list:
// the node is counted, the game is over when neither side can move. The side to move's legal moves,
// computed for that test, go to the evaluation's mobility features.
template <class Ctx>
int horizon_child(Ctx& ctx, const OthelloState& child, int ply) {
    if (ctx.enter(ply)) return 0;
    const Bitboard moves = child.pos.moves();
    if (moves == 0 && child.pos.opponent_moves() == 0) return ctx.final_leaf(child);
    return ctx.horizon_leaf(child, moves);
}

// The Multi-ProbCut tests of one node; true when the node is cut (or the search was stopped during the
// shallow searches), with its value in `value`.
template <class Ctx>
bool probcut_try(Ctx& ctx, const ProbCut& pc, const OthelloState& s, int depth, int alpha, int beta, int ply,
                 int& value) {
    if (ply == 0 || !pc.active()) return false;
    const int phase = eval::phase_of_empties(s.pos.empty_count());
    const std::optional<eval::ProbCutLine> line =
        probcut_line(*pc.model, phase, depth, pc.deepest[static_cast<std::size_t>(phase)]);
    if (!line || line->shallow >= depth) return false;
    constexpr int kBound = OthelloState::kScoreBound;
    const double margin = pc.t * static_cast<double>(line->sigma);
    const double a = line->a;
    const double b = line->b;
    const int shallow = line->shallow;

    // The shallow value against the null window (lo, lo + 1); at depth 0 the static evaluation.
    std::optional<int> static_value;
    const auto shallow_value = [&](int lo) {
        if (shallow > 0) return selective_negascout(ctx, pc, s, shallow, lo, lo + 1, ply);
        if (!static_value) static_value = ctx.enter(ply) ? 0 : ctx.horizon_leaf(s);
        return *static_value;
    };

    const double high = std::ceil((beta + margin - b) / a);
    if (high > -kBound && high <= kBound) {
        const int bound = static_cast<int>(high);
        const int v = shallow_value(bound - 1);
        if (ctx.aborted) {
            value = 0;
            return true;
        }
        if (v >= bound) {
            value = beta;
            ctx.store(s, depth, alpha, beta, beta, kNoMove);
            return true;
        }
    }
    const double low = std::floor((alpha - margin - b) / a);
    if (low >= -kBound && low < kBound) {
        const int bound = static_cast<int>(low);
        const int v = shallow_value(bound);
        if (ctx.aborted) {
            value = 0;
            return true;
        }
        if (v <= bound) {
            value = alpha;
            ctx.store(s, depth, alpha, beta, alpha, kNoMove);
            return true;
        }
    }
    return false;
}

}  // namespace detail

template <class Ctx>
bool MultiProbCut::try_cut(Ctx& ctx, const OthelloState& s, int depth, int alpha, int beta, int ply, int& value) const {
    return detail::probcut_try(ctx, *pc, s, depth, alpha, beta, ply, value);
}

// The engine's selective search: negascout_with's body (engine/search/algorithms.hpp) with the
// Multi-ProbCut policy, written out for speed without changing a single node:
//  - a child at the horizon is scored in place (detail::horizon_child: no move list, no call; a
//    re-search of such a child counts its node again, as negascout_with's would, and reuses its score);
//  - below the root, the table's move is searched before the other moves are ordered: the ordering
//    puts it first anyway (every OthelloOrder mode but None, which keeps the generated order), and when it cuts (most
//    nodes of a null-window search) the ordering's evaluations of the other children are never made.
// It visits and counts exactly the nodes of negascout_with(ctx, MultiProbCut{&pc}, ...), and with an
// inactive `pc` those of negascout() (tests/search/probcut_test.cpp checks both).
template <class Ctx>
int selective_negascout(Ctx& ctx, const ProbCut& pc, const OthelloState& s, int depth, int alpha, int beta, int ply) {
    if (ctx.enter(ply)) return 0;
    MoveList list;
    s.generate_moves(list);
    if (list.empty()) return ctx.final_leaf(s);
    if (depth <= 0) return ctx.horizon_leaf(s);
    int tt_value = 0;
    Move tt_move = kNoMove;
    if (ctx.probe(s, depth, alpha, beta, ply, tt_value, tt_move)) return tt_value;
    if (int cut_value = 0; detail::probcut_try(ctx, pc, s, depth, alpha, beta, ply, cut_value)) return cut_value;

    int best = -Ctx::kInfinity;
    Move best_move = kNoMove;
    // Searches list[i]; true when the node is done (a cutoff, or the search was stopped).
    const auto search_move = [&](int i) {
        const Move m = list[i];
        const OthelloState child = s.play(m);
        const int d = child_depth(depth, m);
        const int a = std::max(alpha, best);
        int v;
        if (d == 0) {
            v = -detail::horizon_child(ctx, child, ply + 1);
            if (i > 0 && !ctx.aborted && a < v && v < beta && !ctx.enter(ply + 1)) ++ctx.leaves;
        } else if (i == 0) {
            v = -selective_negascout(ctx, pc, child, d, -beta, -a, ply + 1);
        } else {
            v = -selective_negascout(ctx, pc, child, d, -a - 1, -a, ply + 1);
            if (!ctx.aborted && a < v && v < beta) v = -selective_negascout(ctx, pc, child, d, -beta, -v, ply + 1);
        }
        if (ctx.aborted) return true;
        if (v > best) {
            best = v;
            best_move = m;
            ctx.note_best(ply, m);
        }
        return best >= beta;
    };
    // The moves are ordered before the first is searched, or, when the table's move goes first, after it
    // (one loop, so that search_move has one call site and is inlined).
    int order_at = 0;
    if (Move* it = std::find(list.begin(), list.end(), tt_move);
        ply > 0 && it != list.end() && ctx.order.table_move_first()) {
        std::rotate(list.begin(), it, it + 1);  // where the ordering puts it (ties keep the order)
        order_at = 1;
    }
    for (int i = 0;; ++i) {
        if (i == order_at) ctx.prepare_moves(s, list, ply, tt_move, depth);  // may drop root moves
        if (i >= list.size()) break;
        if (search_move(i)) {
            if (ctx.aborted) return best;
            break;
        }
    }
    ctx.store(s, depth, alpha, beta, best, best_move);
    return best;
}

// NegaScout with Multi-ProbCut (selective_negascout).
template <class Ctx>
int probcut_negascout(Ctx& ctx, const ProbCut& pc, const OthelloState& s, int depth, int alpha, int beta, int ply) {
    return selective_negascout(ctx, pc, s, depth, alpha, beta, ply);
}

// One root search with the selective NegaScout (the counterpart of run_algorithm for it). Sets the
// context's `selective` flag from `pc`.
template <class Ctx>
RootSearch run_probcut_negascout(Ctx& ctx, const ProbCut& pc, const OthelloState& root, int depth, int alpha,
                                 int beta) {
    RootSearch r;
    ctx.reset_root();
    ctx.selective = pc.active();
    r.value = probcut_negascout(ctx, pc, root, depth, alpha, beta, 0);
    r.best_move = ctx.root_best;
    r.complete = !ctx.aborted;
    return r;
}

}  // namespace reversi
