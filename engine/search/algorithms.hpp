#pragma once
// The depth-first game-tree search algorithms, each a small function written as in its textbook (all in
// negamax form: a score is from the side to move's point of view, a child's score is negated).
//
//   minimax         plain negamax over every move, no pruning.
//   alphabeta       fail-soft alpha-beta: the result is the true value when alpha < v < beta, an upper
//                   bound (<= alpha) on a fail low and a lower bound (>= beta) on a fail high.
//   alphabeta_hard  fail-hard alpha-beta: the result is clamped into [alpha, beta].
//   negascout       Reinefeld's NegaScout: the first child with the full window, each later child with
//                   the null window (-a-1, -a); a result a < v < beta is re-searched with (-beta, -v);
//                   return as soon as v >= beta; fail-soft. One body, negascout_with, takes a cut policy
//                   (NoCut here; Multi-ProbCut in engine/search/probcut_search.hpp).
//   scout           Pearl's SCOUT: eval() computes the value, test() answers "value > v" (or ">= v") and
//                   returns as soon as one child proves it; a later child is evaluated only when test()
//                   says it beats the current value.
// alphabeta, alphabeta_hard and negascout read and write the transposition table when the context has
// one ("alpha-beta with memory": stored lower and upper bounds). minimax and scout never use it.
// The MTD family and C* (engine/search/mtd.hpp) drive alphabeta with null windows.
//
// Every function takes the context (engine/search/search_context.hpp), the state, the remaining depth
// and the distance from the root (ply 0 is the root: there the moves are restricted to the allowed root
// moves, the best move is recorded, and no table cutoff is taken). When the context is aborted the
// returned value is meaningless and the caller returns at once.
#include <algorithm>

#include "engine/search/search_context.hpp"

namespace reversi {

template <class Ctx, GameState S>
int minimax(Ctx& ctx, const S& s, int depth, int ply) {
    if (ctx.enter(ply)) return 0;
    MoveList list;
    s.generate_moves(list);
    if (list.empty()) return ctx.final_leaf(s);
    if (depth <= 0) return ctx.horizon_leaf(s);
    ctx.prepare_moves(s, list, ply, kNoMove, depth);
    int best = -Ctx::kInfinity;
    for (Move m : list) {
        const int v = -minimax(ctx, s.play(m), child_depth(depth, m), ply + 1);
        if (ctx.aborted) return best;
        if (v > best) {
            best = v;
            ctx.note_best(ply, m);
        }
    }
    return best;
}

template <class Ctx, GameState S>
int alphabeta(Ctx& ctx, const S& s, int depth, int alpha, int beta, int ply) {
    if (ctx.enter(ply)) return 0;
    MoveList list;
    s.generate_moves(list);
    if (list.empty()) return ctx.final_leaf(s);
    if (depth <= 0) return ctx.horizon_leaf(s);
    int tt_value = 0;
    Move tt_move = kNoMove;
    if (ctx.probe(s, depth, alpha, beta, ply, tt_value, tt_move)) return tt_value;
    ctx.prepare_moves(s, list, ply, tt_move, depth);

    int best = -Ctx::kInfinity;
    Move best_move = kNoMove;
    for (Move m : list) {
        const int v = -alphabeta(ctx, s.play(m), child_depth(depth, m), -beta, -std::max(alpha, best), ply + 1);
        if (ctx.aborted) return best;
        if (v > best) {
            best = v;
            best_move = m;
            ctx.note_best(ply, m);
            if (best >= beta) break;
        }
    }
    ctx.store(s, depth, alpha, beta, best, best_move);
    return best;
}

template <class Ctx, GameState S>
int alphabeta_hard(Ctx& ctx, const S& s, int depth, int alpha, int beta, int ply) {
    if (ctx.enter(ply)) return alpha;
    MoveList list;
    s.generate_moves(list);
    if (list.empty()) return std::clamp(ctx.final_leaf(s), alpha, beta);
    if (depth <= 0) return std::clamp(ctx.horizon_leaf(s), alpha, beta);
    int tt_value = 0;
    Move tt_move = kNoMove;
    if (ctx.probe(s, depth, alpha, beta, ply, tt_value, tt_move)) return std::clamp(tt_value, alpha, beta);
    ctx.prepare_moves(s, list, ply, tt_move, depth);

    int best = alpha;
    Move best_move = kNoMove;
    for (Move m : list) {
        const int v = -alphabeta_hard(ctx, s.play(m), child_depth(depth, m), -beta, -best, ply + 1);
        if (ctx.aborted) return best;
        if (v > best) {
            best = v;
            best_move = m;
            ctx.note_best(ply, m);
            if (best >= beta) {
                best = beta;
                break;
            }
        }
    }
    ctx.store(s, depth, alpha, beta, best, best_move);
    return best;
}

// A cut policy for negascout_with: tried at every node that is not the root, after the table probe and
// before the moves are searched; when it returns true the node returns `value`. NoCut never cuts, so
// negascout_with(ctx, NoCut{}, ...) is the textbook NegaScout; the engine's selective search passes its
// Multi-ProbCut policy (engine/search/probcut_search.hpp).
struct NoCut {
    template <class Ctx, class S>
    constexpr bool try_cut(Ctx& /*ctx*/, const S& /*s*/, int /*depth*/, int /*alpha*/, int /*beta*/, int /*ply*/,
                           int& /*value*/) const noexcept {
        return false;
    }
};

template <class Ctx, GameState S, class Cut>
int negascout_with(Ctx& ctx, const Cut& cut, const S& s, int depth, int alpha, int beta, int ply) {
    if (ctx.enter(ply)) return 0;
    MoveList list;
    s.generate_moves(list);
    if (list.empty()) return ctx.final_leaf(s);
    if (depth <= 0) return ctx.horizon_leaf(s);
    int tt_value = 0;
    Move tt_move = kNoMove;
    if (ctx.probe(s, depth, alpha, beta, ply, tt_value, tt_move)) return tt_value;
    if (int cut_value = 0; cut.try_cut(ctx, s, depth, alpha, beta, ply, cut_value)) return cut_value;
    ctx.prepare_moves(s, list, ply, tt_move, depth);

    int best = -Ctx::kInfinity;
    Move best_move = kNoMove;
    for (int i = 0; i < list.size(); ++i) {
        const Move m = list[i];
        const S child = s.play(m);
        const int d = child_depth(depth, m);
        const int a = std::max(alpha, best);
        int v;
        if (i == 0) {
            v = -negascout_with(ctx, cut, child, d, -beta, -a, ply + 1);
        } else {
            v = -negascout_with(ctx, cut, child, d, -a - 1, -a, ply + 1);
            if (!ctx.aborted && a < v && v < beta) v = -negascout_with(ctx, cut, child, d, -beta, -v, ply + 1);
        }
        if (ctx.aborted) return best;
        if (v > best) {
            best = v;
            best_move = m;
            ctx.note_best(ply, m);
            if (best >= beta) break;
        }
    }
    ctx.store(s, depth, alpha, beta, best, best_move);
    return best;
}

template <class Ctx, GameState S>
int negascout(Ctx& ctx, const S& s, int depth, int alpha, int beta, int ply) {
    return negascout_with(ctx, NoCut{}, s, depth, alpha, beta, ply);
}

// SCOUT's test(): is value(s) > v (strict) or value(s) >= v (!strict)? In negamax form value(s) > v
// holds when some child c has value(c) < -v, that is when test(c, -v, >=) fails; and value(s) >= v
// when some child has value(c) <= -v, that is when test(c, -v, >) fails.
template <class Ctx, GameState S>
bool scout_test(Ctx& ctx, const S& s, int depth, int v, bool strict, int ply) {
    if (ctx.enter(ply)) return false;
    MoveList list;
    s.generate_moves(list);
    if (list.empty() || depth <= 0) {
        const int value = list.empty() ? ctx.final_leaf(s) : ctx.horizon_leaf(s);
        return strict ? value > v : value >= v;
    }
    ctx.prepare_moves(s, list, ply, kNoMove, depth);
    for (Move m : list) {
        const bool child_reaches = scout_test(ctx, s.play(m), child_depth(depth, m), -v, !strict, ply + 1);
        if (ctx.aborted) return false;
        if (!child_reaches) return true;
    }
    return false;
}

// SCOUT's eval(): the exact value. The first child is evaluated; every later child is first tested,
// and evaluated only when it beats the current value.
template <class Ctx, GameState S>
int scout(Ctx& ctx, const S& s, int depth, int ply) {
    if (ctx.enter(ply)) return 0;
    MoveList list;
    s.generate_moves(list);
    if (list.empty()) return ctx.final_leaf(s);
    if (depth <= 0) return ctx.horizon_leaf(s);
    ctx.prepare_moves(s, list, ply, kNoMove, depth);

    int v = -Ctx::kInfinity;
    for (int i = 0; i < list.size(); ++i) {
        const Move m = list[i];
        const S child = s.play(m);
        const int d = child_depth(depth, m);
        // The child beats v when its own value is < -v, i.e. when test(child, -v, >=) fails.
        if (i == 0 || !scout_test(ctx, child, d, -v, false, ply + 1)) {
            if (ctx.aborted) return v;
            const int value = -scout(ctx, child, d, ply + 1);
            if (ctx.aborted) return v;
            if (i == 0 || value > v) {
                v = value;
                ctx.note_best(ply, m);
            }
        }
        if (ctx.aborted) return v;
    }
    return v;
}

}  // namespace reversi
