#pragma once
// The training pipeline behind reversi-train: WTHOR files -> samples with targets (cached per file, so
// an interrupted build resumes where it stopped) -> deduplicated set -> one fit per phase, each phase
// saved as soon as it is fitted (an interrupted fit resumes at the first phase not yet in the file).
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "engine/eval/pattern/training/fitter.hpp"
#include "engine/eval/pattern/training/training_set.hpp"

namespace reversi::eval {

struct BuildConfig {
    std::vector<std::string> wthor_files;
    // The files of wthor_files whose games play perfectly from their theory depth (self-play): built
    // with policy.perfect_from_theory, cached under their own tag, and every kPerfectPlayCheck-th game
    // also solved as usual: a difference is an error naming the game.
    std::set<std::string> perfect_play_files;
    std::string cache_dir;  // empty: no cache
    TargetPolicy policy;
    std::uint32_t policy_tag = 0;  // identifies the policy in cache files (a different tag is rebuilt)
    std::uint64_t max_games = 0;   // 0: all games (a limit builds the files one after another)
    // Files are built by this many threads, each with its own solver from solver_factory (when set, it
    // replaces policy.solver); the samples are gathered in file order, so the set does not depend on it.
    int threads = 1;
    std::function<ExactSolver()> solver_factory;
};

inline constexpr std::size_t kPerfectPlayCheck = 64;
// Bits of the cache tags beside the policy's own: a perfect-play file's samples were not solved, so a
// cache of another kind is not taken; and the solver's wipeouts are exact (caches made before took them
// as bounds, so their targets differ).
inline constexpr std::uint32_t kPerfectPlayTag = 0x10000;
inline constexpr std::uint32_t kExactWipeoutsTag = 0x20000;

struct BuildReport {
    TargetStats stats;
    std::size_t raw_samples = 0;
    std::size_t unique_samples = 0;
    std::size_t cached_files = 0;  // files whose samples came from the cache
};

using BuildProgress =
    std::function<void(const std::string& file, std::size_t index, std::size_t total, const TargetStats& so_far)>;

[[nodiscard]] Expected<std::vector<Sample>> build_training_set(const BuildConfig& config, BuildReport& report,
                                                               const BuildProgress& progress = {});

struct PhaseOutcome {
    PhaseReport report;
    bool resumed = false;  // taken from the existing output file, not fitted in this run
};

// Fits every phase missing from `output_path` (all phases unless `resume`), saving after each phase.
// With `resume`, the phases in `refit_mask` (bit p: phase p) are fitted again even when the file has
// them, so that a run can replace some phases of an existing file (its Multi-ProbCut section is kept).
[[nodiscard]] Expected<std::vector<PhaseOutcome>> train_weights(std::span<const Sample> samples, const FitConfig& fit,
                                                                const std::string& output_path, bool resume,
                                                                const FitProgress& progress = {},
                                                                std::uint32_t refit_mask = 0);

}  // namespace reversi::eval
