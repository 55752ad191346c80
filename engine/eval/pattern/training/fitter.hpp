#pragma once
// Fits one phase's weight table by regularised least squares:
//   minimise  sum_i (sum_{f in features(i)} w_f - target_i)^2 + lambda * sum_f w_f^2
// over the phase's training samples, with the conjugate-gradient method on the normal equations,
// preconditioned by the diagonal (feature counts + lambda). Deterministic: a fixed iteration count,
// a fixed visiting order, and a held-out test split chosen by a seeded hash of the position.
// Errors are reported for what the evaluator returns: the quantised weights, rounded to discs.
#include <cstdint>
#include <functional>
#include <span>

#include "engine/eval/pattern/training/training_set.hpp"
#include "engine/eval/weights/weights_file.hpp"

namespace reversi::eval {

struct FitConfig {
    double lambda = 5.0;      // L2 strength, in squared discs per unit weight^2 (a weight seen n times
                              // is shrunk by about n / (n + lambda))
    int iterations = 60;      // conjugate-gradient iterations per phase
    int test_permille = 100;  // held-out share of the positions
    std::uint64_t seed = 1;   // chooses the held-out positions
    int overlap = 0;          // also train on positions up to this many empties outside the phase
                              // (smoother phase boundaries; the test split keeps the phase's own)
    int min_count = 1;        // weights activated by fewer training positions stay 0 (smaller files,
                              // less noise); with warm_start they keep the prior's value
    // Warm start: the table passed in `out` is the prior w0, and the fit minimises
    //   sum_i (sum_{f in features(i)} w_f - target_i)^2 + lambda * sum_f (w_f - w0_f)^2,
    // i.e. a ridge fit of the residuals target_i - w0(i), added to w0: new positions refine a table fitted
    // on other data (which need not be at hand) without forgetting it where they say nothing.
    bool warm_start = false;
    // Only the phase's positions with min_empties..max_empties empties are fitted and tested (e.g. those
    // whose targets are exact).
    int min_empties = 0;
    int max_empties = 60;
};

struct PhaseReport {
    int phase = 0;
    std::size_t train_count = 0;  // including the overlap positions from the neighbouring phases
    std::size_t test_count = 0;
    double zero_train_mae = 0;  // error of the all-zero table (before fitting)
    double zero_test_mae = 0;
    double prior_train_mae = 0;  // warm start: the errors of the table before the fit (else 0)
    double prior_test_mae = 0;
    double train_mae = 0;
    double train_rmse = 0;
    double test_mae = 0;
    double test_rmse = 0;
    std::size_t active_weights = 0;  // weights fitted (activated by at least min_count positions)
    double seconds = 0;
};

[[nodiscard]] bool is_test_sample(const Sample& s, std::uint64_t seed, int test_permille) noexcept;

// Called every few iterations with the current training RMSE (float weights).
using FitProgress = std::function<void(int phase, int iteration, double train_rmse)>;

// Fits the samples of `phase` (others are ignored) and writes the quantised table to `out`
// (kWeightsPerPhase values in 1/kWeightScale disc); with config.warm_start, `out` holds the prior on entry.
[[nodiscard]] PhaseReport fit_phase(std::span<const Sample> samples, int phase, const FitConfig& config,
                                    std::int16_t* out, const FitProgress& progress = {});

}  // namespace reversi::eval
