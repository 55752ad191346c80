#include "engine/search/exact_solve.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace reversi {

bool endgame_solver_applies(const Position& pos, const SearchOptions& options, bool all_root_moves) noexcept {
    const bool ordered = options.ordering == MoveOrdering::Normal || options.ordering == MoveOrdering::Evaluated;
    return options.dedicated_endgame && options.algorithm == Algorithm::NegaScout && options.use_tt && ordered &&
           options.multipv == 1 && all_root_moves && pos.playable == ~Bitboard{0} &&
           pos.rule == ScoreRule::EmptiesToWinner;
}

ExactSolveOutcome run_endgame_solver(endgame::EndgameSolver& solver, const Position& pos,
                                     const ExactSolveRequest& request) {
    std::atomic<bool> solver_stop{false};
    std::mutex mutex;
    std::condition_variable done_signal;
    bool done = false;

    // Watcher: the search's stop flag and deadline, polled every millisecond until the solve returns.
    std::thread watcher([&] {
        std::unique_lock lock(mutex);
        while (!done) {
            const bool stopped = request.stop && request.stop->load(std::memory_order_relaxed);
            const bool late = request.deadline && std::chrono::steady_clock::now() >= *request.deadline;
            if (stopped || late) solver_stop.store(true, std::memory_order_relaxed);
            done_signal.wait_for(lock, std::chrono::milliseconds(1));
        }
    });

    endgame::SolveOptions options;
    options.alpha = request.wld ? -1 : -64;
    options.beta = request.wld ? 1 : 64;
    options.threads = request.threads;
    const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) {
        if (request.node_limit && p.nodes >= *request.node_limit) solver_stop.store(true, std::memory_order_relaxed);
    };
    auto result = solver.solve(pos, options, solver_stop, progress);
    {
        std::lock_guard lock(mutex);
        done = true;
    }
    done_signal.notify_all();
    watcher.join();

    ExactSolveOutcome outcome;
    if (!result) return outcome;  // unreachable when endgame_solver_applies() holds
    outcome.value = request.wld ? (result->score > 0) - (result->score < 0) : result->score;
    outcome.best_move = result->best_move;
    outcome.complete = result->completed && result->bound == endgame::ScoreBound::Exact;
    if (request.wld) outcome.complete = result->completed;
    outcome.pv = result->pv;
    outcome.nodes = result->nodes;
    return outcome;
}

}  // namespace reversi
