#pragma once
// The Searcher's bridge to the dedicated endgame solver (engine/endgame/solver.hpp). The solver takes
// only a stop flag, so a watcher thread turns the search's own stop flag and hard deadline into it, and
// the solver's per-root-move progress enforces the node limit (checked after each root move).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/endgame/solver.hpp"
#include "engine/search/search_types.hpp"

namespace reversi {

// The dedicated solver is used for exact (and WLD) solves in the engine's own configuration: negascout
// with the table and normal ordering, one line, every root move, standard 8x8 board and rule. Textbook
// configurations (another algorithm, TT off, ordering none/fixed, MultiPV) keep the generic search so
// that their node counts stay those of the algorithm; so does SearchOptions::dedicated_endgame = false.
[[nodiscard]] bool endgame_solver_applies(const Position& pos, const SearchOptions& options,
                                          bool all_root_moves) noexcept;

struct ExactSolveRequest {
    bool wld = false;
    int threads = 1;
    const std::atomic<bool>* stop = nullptr;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::optional<std::uint64_t> node_limit;
};

struct ExactSolveOutcome {
    int value = 0;  // exact score, or -1/0/+1 with wld
    Move best_move = kNoMove;
    bool complete = false;
    std::vector<Move> pv;
    std::uint64_t nodes = 0;
};

[[nodiscard]] ExactSolveOutcome run_endgame_solver(endgame::EndgameSolver& solver, const Position& pos,
                                                   const ExactSolveRequest& request);

}  // namespace reversi
