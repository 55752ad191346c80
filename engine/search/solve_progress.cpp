#include "engine/search/solve_progress.hpp"

#include "engine/endgame/selectivity.hpp"

namespace reversi {

int endgame_selectivity_percent(int level) noexcept {
    if (level <= 0 || level > endgame::kMaxSelectivityLevel) return kMaxSelectivityPercent;
    return endgame::kSelectivityPercent[static_cast<std::size_t>(level)];
}

IterationReport SolveProgress::skeleton(const endgame::RootProgress& p) const {
    IterationReport r;
    r.depth = base_.empties;
    r.selective_depth = base_.empties;
    r.nodes = base_.nodes_before + p.nodes;
    r.time =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - base_.search_start);
    r.hashfull = base_.hashfull;
    r.selectivity = endgame_selectivity_percent(level_);
    return r;
}

bool SolveProgress::repeats(const IterationReport& r) {
    const bool same = last_ && last_->score == r.score && last_->bound == r.bound &&
                      last_->selectivity == r.selectivity && last_->pv == r.pv;
    last_ = r;
    return same;
}

std::optional<IterationReport> SolveProgress::translate(const endgame::RootProgress& p) {
    const bool periodic = p.move == kNoMove && !p.pass_end;
    if (!periodic) level_ = p.selectivity_level;
    IterationReport r = skeleton(p);
    if (periodic) {
        r.progress = true;
        return r;
    }
    if (p.move != kNoMove) r.pv = p.root_passed ? std::vector<Move>{kPass, p.move} : std::vector<Move>{p.move};
    r.score = p.score;
    if (p.pass_end) {
        // The final exact pass is the solve's result: the Searcher reports it (so does a WLD pass, whose
        // bounds are its answer).
        if (p.selectivity_level == 0 && (p.bound == Bound::Exact || base_.wld)) return std::nullopt;
        r.bound = p.bound;
        if (repeats(r)) return std::nullopt;
        return r;
    }
    // A root move: a new best that is not only an upper bound raises the root's lower bound. After the
    // root's pass the move is the opponent's: its new best (exact or a lower bound for the opponent, Exact
    // or Upper once negated) lowers the root's upper bound.
    const Bound gained = p.root_passed ? Bound::Upper : Bound::Lower;
    if (!p.new_best || p.bound == negated(gained)) return std::nullopt;
    r.bound = gained;
    if (repeats(r)) return std::nullopt;
    return r;
}

}  // namespace reversi
