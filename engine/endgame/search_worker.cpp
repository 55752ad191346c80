#include "engine/endgame/search_worker.hpp"

#include <cmath>

#include "engine/board/moves.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/last_empties.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/endgame/shared_move.hpp"
#include "engine/endgame/stability.hpp"

namespace reversi::endgame {

bool SearchWorker::probcut(Bitboard P, Bitboard O, int alpha, int beta, int empties, int& score) {
    const EndgameProbCut& pc = endgame_probcut(empties);
    const double margin = kSelectivityT[static_cast<std::size_t>(selectivity_level_)] * pc.sigma;
    // Fail high: a * v + b - margin >= beta, i.e. v >= (beta + margin - b) / a (in 1/32 disc).
    if (beta < kScoreMax) {
        const double bound = (beta + margin - pc.b) / pc.a;
        if (bound < kScoreMax) {
            const int v = static_cast<int>(std::ceil(bound * eval::kWeightScale));
            if (pattern_search(*pattern_, P, O, pc.shallow, v - 1, v, nodes_) >= v) {
                ++probcuts_;
                score = beta;
                return true;
            }
        }
    }
    // Fail low: a * v + b + margin <= alpha.
    if (alpha > -kScoreMax) {
        const double bound = (alpha - margin - pc.b) / pc.a;
        if (bound > -kScoreMax) {
            const int v = static_cast<int>(std::floor(bound * eval::kWeightScale));
            if (pattern_search(*pattern_, P, O, pc.shallow, v, v + 1, nodes_) <= v) {
                ++probcuts_;
                score = alpha;
                return true;
            }
        }
    }
    return false;
}

bool SearchWorker::must_stop() {
    control_.charge_due(nodes_, charged_);
    return control_.stopped(cutoff_);
}

int stability_threshold(int empties) noexcept {
    // Low empties: many stable discs are common, so the test pays off at lower alphas.
    const int t = 2 * empties + 4;
    return t > 64 ? 64 : t;
}

int SearchWorker::search(Bitboard P, Bitboard O, int alpha, int beta) {
    return dispatch_pv(P, O, alpha, beta, popcount(~(P | O)));
}

int SearchWorker::null_window(Bitboard P, Bitboard O, int alpha) {
    return dispatch_nws(P, O, alpha, popcount(~(P | O)));
}

int SearchWorker::dispatch_pv(Bitboard P, Bitboard O, int alpha, int beta, int empties, Bitboard moves) {
    if (empties <= 4) return solve_small(P, O, alpha, beta, nodes_);
    if (empties <= kShallowEmpties) return shallow(P, O, alpha, beta, empties, moves);
    return hashed<true>(P, O, alpha, beta, empties, moves);
}

int SearchWorker::dispatch_nws(Bitboard P, Bitboard O, int alpha, int empties, Bitboard moves) {
    if (empties <= 4) return solve_small(P, O, alpha, alpha + 1, nodes_);
    if (empties <= kShallowEmpties) return shallow(P, O, alpha, alpha + 1, empties, moves);
    return hashed<false>(P, O, alpha, alpha + 1, empties, moves);
}

int SearchWorker::shallow(Bitboard P, Bitboard O, int alpha, int beta, int empties, Bitboard moves) {
    ++nodes_;
    // At 5-6 empties (and in solve_4) most discs sit on full lines: the test is made whenever it can
    // succeed ("The stability cutoff at 4, 5 and 6 empties", docs/endgame.md).
    if (int upper = 0; stability_cutoff(P, O, alpha, upper)) return upper;
    if (moves == kUnknownMoves) moves = legal_moves(P, O);
    if (!moves) {
        const Bitboard replies = legal_moves(O, P);
        if (!replies) return final_score(P, empties);
        return -shallow(O, P, -beta, -alpha, empties, replies);
    }
    const Bitboard odd = odd_quadrants(~(P | O));
    int best = -kInfinity;
    for (const Bitboard part : {moves & odd, moves & ~odd}) {
        for (int sq : squares(part)) {
            const Bitboard f = flips_from_rays(P, O, sq);
            const Bitboard np = O ^ f;
            const Bitboard no = P ^ f ^ square_bit(sq);
            const int a = alpha > best ? alpha : best;
            const int score =
                empties == 5 ? -solve_4(np, no, -beta, -a, nodes_) : -shallow(np, no, -beta, -a, empties - 1);
            if (score > best) {
                best = score;
                if (best >= beta) return best;
            }
        }
    }
    return best;
}

namespace {

// The key of the child of (P, O) after the listed move m.
[[gnu::always_inline]] inline std::uint64_t child_key(Bitboard P, Bitboard O, const EndgameMove& m) noexcept {
    return hash_discs(O ^ m.flipped, P ^ m.flipped ^ square_bit(m.square));
}

}  // namespace

template <bool Pv>
int SearchWorker::hashed(Bitboard P, Bitboard O, int alpha, int beta, int empties, Bitboard moves) {
    ++nodes_;
    if (must_stop()) {
        aborted_ = true;
        return 0;
    }
    if (int upper = 0; alpha >= stability_threshold(empties) && stability_cutoff(P, O, alpha, upper)) return upper;
    const std::uint64_t key = hash_discs(P, O);
    TableMoves table;
    if (EndgameTTData entry; empties >= kHashEmpties && tt_.probe(key, empties, entry)) {
        if (int cut = 0; entry.cuts(selectivity_level_, alpha, beta, cut)) return cut;
        table = {entry.move, entry.second};
    }

    // The level of the bounds stored here: below probcut_empties_ the subtree never cuts.
    const int level = empties >= probcut_empties_ ? selectivity_level_ : 0;
    if (level > 0 && pattern_) {
        if (int cut = 0; probcut(P, O, alpha, beta, empties, cut)) return cut;
    }

    if (moves == kUnknownMoves) moves = legal_moves(P, O);
    if (!moves) {
        const Bitboard replies = legal_moves(O, P);
        if (!replies) return final_score(P, empties);
        return Pv ? -hashed<true>(O, P, -beta, -alpha, empties, replies)
                  : -hashed<false>(O, P, -beta, -alpha, empties, replies);
    }
    return search_moves<Pv>(P, O, alpha, beta, empties, moves, key, level, table);
}

template <bool Pv>
[[gnu::always_inline]] inline int SearchWorker::search_moves(Bitboard P, Bitboard O, int alpha, int beta, int empties,
                                                             Bitboard moves, std::uint64_t key, int level,
                                                             TableMoves table) {
    const std::uint64_t nodes_before = nodes_;
    EndgameMoveList list;
    // Without ETC, a legal table move is searched before the other moves are listed: when it cuts, their
    // flips and prefetches are never paid for (FFO #41-#44: -1.2 % instructions, docs/endgame.md).
    const bool etc = !Pv && empties >= kEtcEmpties;
    const bool table_move_alone = !etc && table.first != kNoMove && (moves & square_bit(table.first)) != 0;
    if (table_move_alone) {
        list.moves[0] = listed_move(P, O, table.first);
        list.size = 1;
    } else {
        list_moves(list, P, O, moves);
        prefetch_children(list, 0, P, O, empties);
    }
    if (int cut = 0; etc && etc_cut(list, P, O, key, empties, beta, level, cut)) return cut;

    NodeWindow w{alpha, beta};
    // The table's move first, before the others are scored: when it cuts, their ordering searches are
    // never paid for. The order of the moves searched is exactly that of scoring them all first.
    const int first = table_move_alone ? 1 : (table.first != kNoMove ? list.bring_to_front(table.first) : 0);
    bool cut = first == 1 && search_listed<Pv>(list, 0, P, O, empties, w);
    if (!cut && table_move_alone) {
        // The same list as listing them all first and bringing the table's move to the front.
        list_moves(list, P, O, moves);
        list.bring_to_front(table.first);
        prefetch_children(list, 1, P, O, empties);
    }
    if (!cut) search_ordered<Pv>(list, first, P, O, empties, table, w);
    if (aborted_) return 0;
    if (empties < kHashEmpties) return w.best;
    const int lower = w.best > alpha ? w.best : -kScoreMax;
    const int upper = w.best < beta ? w.best : kScoreMax;
    tt_.store(key, empties, lower, upper, w.best > alpha ? w.best_move : kNoMove, nodes_ - nodes_before, level);
    return w.best;
}

// The children's table buckets, fetched together: their probes (ETC, then each child's own at its entry)
// find them in the cache instead of waiting for one memory access after another. Inlined, like the
// prefetch itself: as a lambda of its own GCC 12 deleted it (tools/scripts/check-prefetch.sh).
[[gnu::always_inline]] inline void SearchWorker::prefetch_children(const EndgameMoveList& list, int from, Bitboard P,
                                                                   Bitboard O, int empties) const noexcept {
    if (empties - 1 < kHashEmpties) return;
    for (int i = from; i < list.size; ++i)
        tt_.prefetch(child_key(P, O, list.moves[static_cast<std::size_t>(i)]), empties - 1);
}

// Enhanced transposition cutoff: a child whose stored upper bound already refutes it proves a cut.
[[gnu::always_inline]] inline bool SearchWorker::etc_cut(const EndgameMoveList& list, Bitboard P, Bitboard O,
                                                         std::uint64_t key, int empties, int beta, int level,
                                                         int& score) {
    for (int i = 0; i < list.size; ++i) {
        const EndgameMove& m = list.moves[static_cast<std::size_t>(i)];
        EndgameTTData child;
        if (tt_.probe(child_key(P, O, m), empties - 1, child) && child.usable(selectivity_level_) &&
            -child.upper >= beta) {
            tt_.store(key, empties, -child.upper, kScoreMax, static_cast<Move>(m.square), 1,
                      child.selectivity_level > level ? child.selectivity_level : level);
            score = -child.upper;
            return true;
        }
    }
    return false;
}

// Searches list entry i (PVS: the first with the full window); true on a cutoff.
template <bool Pv>
[[gnu::always_inline]] inline bool SearchWorker::search_listed(const EndgameMoveList& list, int i, Bitboard P,
                                                               Bitboard O, int empties, NodeWindow& w) {
    const EndgameMove& m = list.moves[static_cast<std::size_t>(i)];
    const Bitboard np = O ^ m.flipped;
    const Bitboard no = P ^ m.flipped ^ square_bit(m.square);
    int score;
    if (!Pv || i == 0) {
        score = Pv ? -dispatch_pv(np, no, -w.beta, -w.alpha, empties - 1, m.replies)
                   : -dispatch_nws(np, no, -w.beta, empties - 1, m.replies);
    } else {
        score = -dispatch_nws(np, no, -w.alpha - 1, empties - 1, m.replies);
        if (score > w.alpha && score < w.beta) score = -dispatch_pv(np, no, -w.beta, -w.alpha, empties - 1, m.replies);
    }
    if (aborted_) return true;
    if (score > w.best) {
        w.best = score;
        w.best_move = static_cast<Move>(m.square);
        if (w.best >= w.beta) return true;
        if (w.best > w.alpha) w.alpha = w.best;
    }
    return false;
}

// The moves from list entry `first` on, scored and searched best first (or offered to idle threads).
template <bool Pv>
[[gnu::always_inline]] inline void SearchWorker::search_ordered(EndgameMoveList& list, int first, Bitboard P,
                                                                Bitboard O, int empties, TableMoves table,
                                                                NodeWindow& w) {
    scored_children_ +=
        score_listed_moves(list, first, P, O, empties, table.first, table.second, nodes_, pattern_, w.alpha);
    for (int i = first; i < list.size; ++i) {
        // Once a move is searched, the rest may go to an idle thread (split_point.hpp).
        if (i > 0 && board_ && empties >= kSplitEmpties && list.size - i >= 2 && board_->wanted()) {
            split<Pv>(list, i, P, O, w.alpha, w.beta, empties, w.best, w.best_move);
            return;
        }
        list.pick_best(i);
        if (search_listed<Pv>(list, i, P, O, empties, w)) return;
    }
}

template <bool Pv>
bool SearchWorker::split(EndgameMoveList& list, int from, Bitboard P, Bitboard O, int alpha, int beta, int empties,
                         int& best, Move& best_move) {
    for (int i = from; i < list.size; ++i) list.pick_best(i);  // the order of the sequential search
    SplitPoint sp(P, O, empties, alpha, beta, Pv, selectivity_level_, probcut_empties_, list, from, best, best_move);
    board_->publish(sp);
    for (int i = sp.take(); i >= 0 && !aborted_; i = sp.take()) search_split_move(sp, i);
    board_->withdraw(sp);
    if (aborted_) sp.abandon();
    // The join: help deeper split points until every helper has left this one.
    wait_helping(empties, [&] {
        if (!aborted_ && must_stop()) {
            aborted_ = true;
            sp.abandon();
        }
        return sp.helpers() == 0;
    });
    add_charged(sp.helper_counts());
    // A helper stopped by the solve's limits drops its move: the node's value is not known.
    if (control_.halted()) aborted_ = true;
    best = sp.best();
    best_move = sp.best_move();
    return best >= beta;
}

void SearchWorker::search_split_move(SplitPoint& sp, int index) {
    const EndgameMove& m = sp.move(index);
    const Bitboard np = sp.opponent() ^ m.flipped;
    const Bitboard no = sp.player() ^ m.flipped ^ square_bit(m.square);
    const int beta = sp.beta();
    const int child_empties = sp.empties() - 1;
    const std::optional<int> score = shared_move_score(
        beta, sp.pv(), [&] { return sp.alpha(); },
        [&](int a) { return -dispatch_nws(np, no, -a - 1, child_empties, m.replies); },
        [&](int a) { return -dispatch_pv(np, no, -beta, -a, child_empties, m.replies); }, [&] { return aborted_; });
    if (score) sp.merge(index, *score);
}

void SearchWorker::help(SplitPoint& sp) {
    SearchWorker w(tt_, control_, sp.stop_flag(), pattern_);
    w.board_ = board_;
    w.selectivity_level_ = sp.selectivity_level();
    w.probcut_empties_ = sp.probcut_empties();
    for (int i = sp.take(); i >= 0; i = sp.take()) {
        w.search_split_move(sp, i);
        if (w.aborted_) break;
    }
    control_.charge(w.nodes_ - w.charged_);
    sp.leave(w.counts());
}

template int SearchWorker::hashed<true>(Bitboard, Bitboard, int, int, int, Bitboard);
template int SearchWorker::hashed<false>(Bitboard, Bitboard, int, int, int, Bitboard);

}  // namespace reversi::endgame
