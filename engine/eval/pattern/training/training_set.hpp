#pragma once
// Training positions and their targets, built from WTHOR games.
//
// Targets (disc difference from the side to move, empties to the winner):
//   - empties <= policy.exact_empties and a solver is plugged in: the solver's exact score; when the game
//     played the solver's best move, the next position takes the same score (from black's view) without
//     a solve, since a best move keeps the minimax value;
//   - otherwise empties >= the file's theory depth (24 in the shared WTHOR files): the game's
//     theoretical score (perfect play from that depth on, so exact at that depth on the game line);
//   - otherwise, with policy.blend: a linear blend, by empty count, of the theoretical score and the
//     "anchor" -- the exact score of the line's first solved position (or the final result when the game
//     ends before the solver limit) -- so that a position near either end takes that end's value;
//   - otherwise: the game's actual final result (the players' later mistakes are noise).
// With policy.perfect_from_theory (games played perfectly from the file's theory depth on, as
// `reversi-train selfplay` plays them), a position the solver would solve that has at most the theory
// depth's empties takes the theoretical score without a solve: every move of perfect play keeps the
// minimax value, so the targets are the solver's.
// Games whose transcript stops before the end are skipped (their actual result is not a final score).
// Positions are stored in a canonical symmetric form (the least (player, opponent) of the 8 images), so
// that symmetric duplicates merge; deduplicate() keeps one sample per position with the mean target.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"
#include "engine/data/wthor.hpp"

namespace reversi::eval {

struct RawSample {
    Bitboard player = 0;
    Bitboard opponent = 0;
    std::int8_t target = 0;
    friend bool operator==(const RawSample&, const RawSample&) = default;
};

struct Sample {
    Bitboard player = 0;
    Bitboard opponent = 0;
    float target = 0;         // mean of the merged targets
    std::uint32_t count = 1;  // how many game positions merged into this one
};

// The least (player, opponent) pair, compared as (player, then opponent), over the 8 symmetric images.
[[nodiscard]] std::pair<Bitboard, Bitboard> canonical_form(Bitboard player, Bitboard opponent) noexcept;

// Any exact solver: the exact score of a position and, when it knows one, a best move (kNoMove
// otherwise), or nullopt when it declines (too many empties).
struct ExactScore {
    int score = 0;
    Move best_move = kNoMove;
};
using ExactSolver = std::function<std::optional<ExactScore>(const Position&)>;

struct TargetPolicy {
    int exact_empties = 0;  // solve positions with at most this many empties (0: none)
    ExactSolver solver;     // unused when empty
    bool blend = true;      // blend theoretical and exact scores between the solver limit and the theory depth
    bool perfect_from_theory = false;  // the games play perfectly from the theory depth: no solves there
};

struct TargetStats {
    std::uint64_t games = 0;
    std::uint64_t unfinished_games = 0;
    std::uint64_t positions = 0;
    std::uint64_t exact = 0;        // targets from the solver
    std::uint64_t solves = 0;       // solver calls (exact targets after a best move need none)
    std::uint64_t theoretical = 0;  // targets from the theoretical score
    std::uint64_t blended = 0;      // targets blended from the theoretical and an exact score
    std::uint64_t actual = 0;       // targets from the final result
    void add(const TargetStats& o) {
        games += o.games, unfinished_games += o.unfinished_games, positions += o.positions;
        exact += o.exact, solves += o.solves, theoretical += o.theoretical, blended += o.blended, actual += o.actual;
    }
};

// The samples of one game (none for an unfinished game); an illegal move is an error.
[[nodiscard]] Expected<std::vector<RawSample>> game_samples(const data::WthorGame& game, int theory_depth,
                                                            const TargetPolicy& policy, TargetStats& stats);

// Sorts and merges identical canonical positions (mean target, summed count).
[[nodiscard]] std::vector<Sample> deduplicate(std::vector<RawSample> raw);

// Sample cache files ("RVTS" v1: magic, version u32, policy tag u32, count u64, then 17-byte records
// player u64, opponent u64, target i8, then the CRC-32 of everything before it). A resumed build
// re-uses a cache whose tag matches; a corrupted or mismatched cache is an error, never half-read.
[[nodiscard]] Expected<bool> save_samples(const std::string& path, std::uint32_t tag,
                                          const std::vector<RawSample>& samples);
[[nodiscard]] Expected<std::vector<RawSample>> load_samples(const std::string& path, std::uint32_t tag);

}  // namespace reversi::eval
