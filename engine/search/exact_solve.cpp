#include "engine/search/exact_solve.hpp"

#include "engine/endgame/variant_solver.hpp"
#include "engine/search/solve_progress.hpp"

namespace reversi {

bool endgame_solver_applies(const Position& pos, const SearchOptions& options, bool all_root_moves) noexcept {
    const bool ordered = options.ordering == MoveOrdering::Normal || options.ordering == MoveOrdering::Evaluated;
    return options.dedicated_endgame && options.algorithm == Algorithm::NegaScout && options.use_tt && ordered &&
           options.multipv == 1 && all_root_moves && pos.playable != 0;
}

ExactSolveOutcome run_endgame_solver(endgame::EndgameSolver& solver, const Position& pos,
                                     const ExactSolveRequest& request) {
    endgame::SolveOptions options;
    options.alpha = request.wld ? -1 : -64;
    options.beta = request.wld ? 1 : 64;
    options.threads = request.threads;
    options.wld_first = request.wld_first && !request.wld;
    options.first_move = request.first_move;
    options.guess = request.guess;  // unused by a wld request: its window (-1, 1) has no aspiration
    // Timed play: no selective passes before the win/loss/draw pass. Measured at 20 empties with 70 ms
    // (docs/endgame.md, "Timed play"): 15 of 30 game positions proven against 9 with the 68 % and 87 %
    // passes first and 3 with the exact solve alone.
    // Instead, from kTimedWldEmpties, a selective WLD pass before the exact one (exact_solve.hpp).
    if (options.wld_first) {
        options.selective = false;
        if (pos.empty_count() >= kTimedWldEmpties) options.wld_first_level = kTimedWldLevel;
    }
    SolveProgress progress(SolveProgress::Base{pos.empty_count(), request.wld, request.nodes_before,
                                               request.search_start, request.hashfull});
    endgame::ProgressCallback relay;
    if (request.on_report) {
        relay = [&](const endgame::RootProgress& p) {
            if (auto report = progress.translate(p)) request.on_report(*report);
        };
    }
    // The standard board goes to the 8x8 solver, every other board to the variant solver (same table).
    const bool standard = pos.playable == ~Bitboard{0} && pos.rule == ScoreRule::EmptiesToWinner;
    auto result = standard ? solver.solve(pos, options, request.limits, relay)
                           : endgame::VariantSolver(solver.table()).solve(pos, options, request.limits, relay);

    ExactSolveOutcome outcome;
    if (!result) return outcome;  // unreachable when endgame_solver_applies() holds
    outcome.value = request.wld ? (result->score > 0) - (result->score < 0) : result->score;
    outcome.best_move = result->best_move;
    outcome.complete = result->completed && result->bound == Bound::Exact;
    if (request.wld) outcome.complete = result->completed;
    outcome.wld = request.wld;
    outcome.pv = result->pv;
    outcome.nodes = result->nodes;
    const auto& pass = result->last_pass;
    if (const auto& wld = result->wld_pass; !outcome.complete && !request.wld && wld && wld->score > 0) {
        outcome.value = 1;  // a proven win: its move, whatever the exact pass would have added
        outcome.best_move = wld->best_move;
        outcome.complete = true;
        outcome.wld = true;
        outcome.pv = {wld->best_move};
    } else if (!outcome.complete && !request.wld && pass && pass->level > 0) {
        const int percent = endgame_selectivity_percent(pass->level);
        // A selective WLD pass answers a probable win or draw (after a probable loss the midgame move
        // stays); a selective exact-window pass answers from kUsableSelectivityPercent.
        if (pass->wld_window ? pass->score >= 0 : percent >= kUsableSelectivityPercent) {
            outcome.value = pass->wld_window ? (pass->score > 0) - (pass->score < 0) : pass->score;
            outcome.best_move = pass->best_move;
            outcome.selectivity = percent;
            outcome.pv = {pass->best_move};
        }
    }
    return outcome;
}

}  // namespace reversi
