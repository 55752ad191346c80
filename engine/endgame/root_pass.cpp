#include "engine/endgame/root_pass.hpp"

#include <algorithm>
#include <optional>

#include "engine/board/moves.hpp"
#include "engine/core/worker_pool.hpp"
#include "engine/endgame/shared_move.hpp"

namespace reversi::endgame {

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

RootPass::Outcome RootPass::run(const std::vector<RootMove>& moves, int alpha, int beta) {
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

SearchWorker RootPass::pass_worker() {
    SearchWorker w(tt_, control_, &cutoff_, pattern_);
    w.set_selectivity_level(selectivity_level_);
    w.set_probcut_empties(probcut_empties_);
    w.set_split_board(board_);
    return w;
}

void RootPass::help_pass(WorkerCounts& counts, char& aborted) {
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

int RootPass::pv_node(SearchWorker& w, Bitboard P, Bitboard O, int alpha, int beta, bool& aborted) {
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

void RootPass::split_loop(SearchWorker& w) {
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

bool RootPass::pass_over() const noexcept {
    return busy_.load() == 0 || cutoff_.load(std::memory_order_relaxed) || control_.halted();
}

int RootPass::current_alpha() {
    std::lock_guard lock(mutex_);
    return std::max(alpha_, outcome_.score);
}

void RootPass::record(int index, int score) {
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

}  // namespace reversi::endgame
