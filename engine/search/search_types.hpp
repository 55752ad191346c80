#pragma once
// What a caller (the protocol layer, the tools) gives the search and gets back: limits, options,
// per-iteration reports and the final result. Plain structs; the search never formats text.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/board/bitboard.hpp"
#include "engine/core/bound.hpp"
#include "engine/core/expected.hpp"

namespace reversi {

enum class Algorithm : std::uint8_t {
    Minimax,        // minimax: plain negamax, no pruning
    AlphaBeta,      // alphabeta: fail-soft
    AlphaBetaHard,  // alphabeta-hard: fail-hard
    NegaScout,      // negascout (alias pvs): the default
    Scout,          // scout: Pearl's SCOUT with eval/test
    MtdF,           // mtdf
    Sss,            // sss: MTD(+inf)
    Dual,           // dual: MTD(-inf)
    CStar,          // cstar: NegaC*
};

// Name as used by "go ... algo NAME" (case-insensitive; "pvs" is an alias of negascout).
[[nodiscard]] Expected<Algorithm> parse_algorithm(std::string_view name);
[[nodiscard]] std::string_view algorithm_name(Algorithm a) noexcept;

// The midgame evaluation at the horizon: the trained pattern evaluation (8x8 only; the other variants
// always use the heuristic) or the hand-written heuristic one (for textbook experiments).
enum class EvalKind : std::uint8_t { Pattern, Heuristic };
[[nodiscard]] Expected<EvalKind> parse_eval_kind(std::string_view name);
[[nodiscard]] std::string_view eval_kind_name(EvalKind e) noexcept;

// None: ascending square index; Fixed: SearchOptions::fixed_order first (then ascending), TT move first;
// Evaluated: as Normal near the horizon, by the trained evaluation of each child further up
// (engine/search/move_ordering.hpp gives the rule).
enum class MoveOrdering : std::uint8_t { Normal, None, Fixed, Evaluated };

struct SearchOptions {
    Algorithm algorithm = Algorithm::NegaScout;
    bool use_tt = true;
    bool iterative_deepening = true;
    bool aspiration = true;
    MoveOrdering ordering = MoveOrdering::Normal;
    int threads = 1;
    int multipv = 1;
    std::vector<Move> fixed_order;  // squares in priority order, for MoveOrdering::Fixed
    EvalKind evaluation = EvalKind::Pattern;
    bool dedicated_endgame = true;  // exact solves through engine/endgame/ where it applies (exact_solve.hpp)
    // Multi-ProbCut confidence in percent (50-100; engine/search/probcut_search.hpp gives the mapping to
    // the cut margin): 100 = no selective cut (every cutoff proven), the library default. Used only by
    // the engine's own search: negascout with the pattern evaluation on 8x8 and a calibration in the
    // weights, in iterations that are not exact, never with solve/wld (searcher.cpp).
    int selectivity = 100;
};

// The range of SearchOptions::selectivity, a confidence in percent (not the endgame solver's selectivity
// level, 0..endgame::kMaxSelectivityLevel, engine/endgame/selectivity.hpp).
inline constexpr int kMinSelectivityPercent = 50;
inline constexpr int kMaxSelectivityPercent = 100;  // off

// The selectivity the engine plays and analyses with (the protocol's Selectivity default, the bench);
// docs/search.md gives the measurement behind it.
inline constexpr int kEngineSelectivityPercent = 73;
// The move ordering the engine plays and analyses with (the library default is Normal, which the
// comparison tables of the textbook algorithms use).
inline constexpr MoveOrdering kEngineOrdering = MoveOrdering::Evaluated;

struct SearchLimits {
    std::optional<int> depth;  // plies; exact solve when depth >= empties
    std::optional<std::uint64_t> nodes;
    std::optional<std::chrono::milliseconds> soft_time;  // do not start a new iteration after this
    std::optional<std::chrono::milliseconds> hard_time;  // stop the search at this time
    bool infinite = false;                               // no node or time limit (the caller waits for stop)
    bool solve = false;                                  // exact endgame score
    bool wld = false;                                    // win/loss/draw only
    std::vector<Move> search_moves;                      // restrict the root moves (empty: all)
};

// A completed iteration, or progress inside an exact solve (depth = empties; engine/search/solve_progress.hpp):
// a root move proved best so far (score with Bound::Lower), a pass's bound, a selective pass's estimate
// (selectivity < 100), or a periodic report (progress: only depth, nodes, time and hashfull).
struct IterationReport {
    int depth = 0;
    int selective_depth = 0;
    int score = 0;               // discs, side to move
    Bound bound = Bound::Exact;  // Lower/Upper: the root's score is at least/at most `score`
    bool progress = false;       // a periodic report inside an iteration: no score, no pv
    bool exact = false;          // score is the exact game-theoretic value (endgame solve)
    bool wld = false;            // score is only win (+1) / draw (0) / loss (-1)
    int multipv = 1;             // 1-based line number when MultiPV > 1
    std::uint64_t nodes = 0;
    std::uint64_t leaves = 0;
    std::chrono::milliseconds time{0};
    int hashfull = 0;       // per mille
    int selectivity = 100;  // Multi-ProbCut confidence of this iteration; 100: no selective cut
    // The scale of a timed search's soft limit after this iteration (engine/search/soft_limit.hpp): what a
    // pondering search, which has no limits of its own, is held to after ponderhit. Set on the Searcher's
    // completed iterations; none on the reports from inside an exact solve, which leave the scale as it is.
    std::optional<double> soft_limit_factor;
    std::vector<Move> pv;
};

// best_move, score, pv and selectivity are those of the last completed iteration (`depth`), also when the
// search was stopped inside a later one; depth 0 (stopped before any iteration completed): best_move is
// the first root move in the search's order, score 0.
struct SearchResult {
    Move best_move = kNoMove;  // kPass when the side must pass, kNoMove when the game is over
    int score = 0;
    bool exact = false;
    int depth = 0;             // last completed iteration
    std::uint64_t nodes = 0;   // positions visited, passes included
    std::uint64_t leaves = 0;  // evaluations at the horizon or at game end
    std::chrono::milliseconds time{0};
    Algorithm algorithm = Algorithm::NegaScout;
    int selectivity = 100;  // that of the last completed iteration (100: no selective cut)
    std::vector<Move> pv;
};

struct SearchCallbacks {
    // Called from the search thread, or during an exact solve from one of the solver's threads, one call
    // at a time; at least once a second during a long solve.
    std::function<void(const IterationReport&)> on_iteration;
};

}  // namespace reversi
