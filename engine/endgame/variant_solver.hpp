#pragma once
// The exact solver of every variant board (engine/board/variant.hpp): any set of playable squares on the
// 8x8 bitboard (6x6, 4x4, the diamonds, ... and the full board too) under the position's own scoring rule
// (Position::final_score: empties to the winner, or the plain disc difference), the rule the generic
// search scores finished games with.
//
//   EndgameTT tt(64);
//   VariantSolver solver(tt);
//   auto r = solver.solve(start_position(Variant::Board6x6), {}, SolveLimits{&stop, {}, {}});
//
// NegaScout (PVS) with the exact solver's transposition table (endgame_tt.hpp, borrowed; keys salted with
// the board and the rule, so that variants and the 8x8 solver share a table without mixing), fastest-first
// ordering (the opponent's replies, unflippable squares counted twice; from kProbeEmpties empties a
// shallow alpha-beta of each move on mobility and corners instead), quadrant parity below
// kSortEmpties, enhanced transposition cutoff, and a stability cutoff from the discs that can never be
// flipped on this board (full lines and unflippable neighbours, computed from the playable mask); at the
// root, a move whose position is a symmetric image of another root move's is not searched. No
// evaluation function: nothing is trained for the variants. SolveOptions::threads > 1 (from 14 root
// empties): YBWC along the principal variation from SolveOptions::split_empties empties (the calling
// thread and threads - 1 workers of the solver's own pool, one shared table). The selective and
// aspiration options are ignored: the variants are small.
// Limits and progress as in EndgameSolver (solve_control.hpp): a stopped solve returns completed = false.
// The 8x8 solver (solver.hpp) stays the one for the standard board: this one is simpler and slower there.
#include <memory>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"
#include "engine/core/worker_pool.hpp"
#include "engine/endgame/endgame_tt.hpp"
#include "engine/endgame/solve_control.hpp"
#include "engine/endgame/solver.hpp"

namespace reversi::endgame {

class VariantSolver {
public:
    explicit VariantSolver(EndgameTT& tt) noexcept : tt_(tt) {}

    // Errors: discs off the playable squares or two discs on one square, no playable square, an empty or
    // reversed window, threads outside 1..256.
    [[nodiscard]] Expected<SolveResult> solve(const Position& pos, const SolveOptions& options,
                                              const SolveLimits& limits, const ProgressCallback& progress = {});

private:
    WorkerPool& worker_pool(int threads);  // grown to threads - 1 workers

    EndgameTT& tt_;
    std::unique_ptr<WorkerPool> pool_;  // threads - 1 helpers, made at the first solve with threads > 1
};

// The table key of the discs (P, O) on the board `playable` under `rule`.
[[nodiscard]] std::uint64_t variant_key(Bitboard P, Bitboard O, Bitboard playable, ScoreRule rule) noexcept;

// The discs of `discs` that no sequence of moves can flip on the board `playable`, where `filled` is
// every occupied square (conservative: full lines and unflippable neighbours in every direction).
[[nodiscard]] Bitboard variant_stable_discs(Bitboard discs, Bitboard filled, Bitboard playable) noexcept;

}  // namespace reversi::endgame
