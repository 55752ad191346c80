#include "engine/eval/pattern/training/fitter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

#include "engine/eval/pattern/features.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"

namespace reversi::eval {

namespace {

struct Rows {
    std::vector<FeatureIndices> features;
    std::vector<float> targets;
};

struct Errors {
    double mae = 0;
    double rmse = 0;
};

Errors quantised_errors(const Rows& rows, const std::int16_t* w) {
    Errors e;
    for (std::size_t i = 0; i < rows.features.size(); ++i) {
        int sum = 0;
        for (std::uint32_t f : rows.features[i]) sum += w[f];
        const double d = units_to_discs(sum) - rows.targets[i];
        e.mae += std::abs(d);
        e.rmse += d * d;
    }
    const double n = rows.features.empty() ? 1.0 : static_cast<double>(rows.features.size());
    return {e.mae / n, std::sqrt(e.rmse / n)};
}

double zero_mae(const Rows& rows) {
    double s = 0;
    for (float t : rows.targets) s += std::abs(static_cast<double>(t));
    return rows.targets.empty() ? 0.0 : s / static_cast<double>(rows.targets.size());
}

// out[i] = sum of v over row i's features.
void multiply(const Rows& rows, const std::vector<double>& v, std::vector<double>& out) {
    for (std::size_t i = 0; i < rows.features.size(); ++i) {
        double s = 0;
        for (std::uint32_t f : rows.features[i]) s += v[f];
        out[i] = s;
    }
}

// out[f] += sum over rows i containing f of v[i].
void multiply_transposed(const Rows& rows, const std::vector<double>& v, std::vector<double>& out) {
    for (std::size_t i = 0; i < rows.features.size(); ++i) {
        for (std::uint32_t f : rows.features[i]) out[f] += v[i];
    }
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

// A phase's training and held-out rows: the training rows are the phase's positions and, within
// config.overlap empties of it, its neighbours'; the held-out ones only the phase's own.
struct PhaseRows {
    Rows train;
    Rows test;
};

PhaseRows phase_rows(std::span<const Sample> samples, int phase, const FitConfig& config) {
    PhaseRows rows;
    const int lo = phase * kEmptiesPerPhase;
    const int hi = phase == kPhaseCount - 1 ? 60 : lo + kEmptiesPerPhase - 1;
    for (const Sample& s : samples) {
        const Position pos{s.player, s.opponent};
        const int empties = empties_of(pos);
        const bool core = phase_of(pos) == phase;
        if (!core && (empties < lo - config.overlap || empties > hi + config.overlap)) continue;
        if (empties < config.min_empties || empties > config.max_empties) continue;
        const bool held_out = is_test_sample(s, config.seed, config.test_permille);
        if (held_out && !core) continue;  // the test split only holds the phase's own positions
        Rows& r = held_out ? rows.test : rows.train;
        r.features.emplace_back();
        extract_features(pos, r.features.back());
        r.targets.push_back(s.target);
    }
    return rows;
}

// The ridge regression of one phase, (A^T A + lambda) w = A^T (y - A w0), by the conjugate gradient
// preconditioned with the diagonal (Jacobi): A the rows' feature indicators, y their targets, w0 the prior.
// A weight seen in fewer than config.min_count rows is frozen at the prior (its preconditioner entry is 0).
class RidgeFit {
public:
    RidgeFit(const Rows& rows, const FitConfig& config, const std::vector<double>& prior)
        : rows_(rows),
          lambda_(config.lambda),
          w_(prior.size(), 0.0),
          r_(prior.size(), 0.0),
          inverse_(prior.size(), 0.0),
          row_values_(rows.features.size()),
          residuals_(rows.targets) {
        std::vector<double> diag(prior.size(), lambda_);
        for (const auto& features : rows.features) {
            for (std::uint32_t f : features) diag[f] += 1.0;
        }
        if (config.warm_start) {
            multiply(rows, prior, row_values_);
            for (std::size_t i = 0; i < residuals_.size(); ++i)
                residuals_[i] = static_cast<float>(residuals_[i] - row_values_[i]);
        }
        // r = A^T (y - A w0) - (A^T A + lambda) w with w = 0.
        for (std::size_t i = 0; i < residuals_.size(); ++i) row_values_[i] = residuals_[i];
        multiply_transposed(rows, row_values_, r_);
        for (std::size_t f = 0; f < diag.size(); ++f) {
            if (diag[f] - lambda_ >= config.min_count) {
                inverse_[f] = 1.0 / diag[f];
                ++active_;
            }
        }
    }

    [[nodiscard]] std::size_t active_weights() const noexcept { return active_; }
    [[nodiscard]] const std::vector<double>& change() const noexcept { return w_; }

    // Up to `iterations` steps; `progress` (when set) gets the training RMSE every 10 steps and at the last.
    void solve(int iterations, const std::function<void(int, double)>& progress) {
        const std::size_t n = w_.size();
        std::vector<double> z(n), p(n), q(n);
        for (std::size_t f = 0; f < n; ++f) p[f] = z[f] = r_[f] * inverse_[f];
        double rz = dot(r_, z);
        for (int it = 1; it <= iterations && rz > 1e-12; ++it) {
            multiply(rows_, p, row_values_);
            for (std::size_t f = 0; f < n; ++f) q[f] = lambda_ * p[f];
            multiply_transposed(rows_, row_values_, q);
            const double pq = dot(p, q);
            if (pq <= 0) break;
            const double alpha = rz / pq;
            for (std::size_t f = 0; f < n; ++f) {
                w_[f] += alpha * p[f];
                r_[f] -= alpha * q[f];
                z[f] = r_[f] * inverse_[f];
            }
            const double rz_next = dot(r_, z);
            const double beta = rz_next / rz;
            rz = rz_next;
            for (std::size_t f = 0; f < n; ++f) p[f] = z[f] + beta * p[f];
            if (progress && (it % 10 == 0 || it == iterations)) progress(it, training_rmse());
        }
    }

private:
    // The RMSE of the fitted change against the residual targets.
    double training_rmse() {
        multiply(rows_, w_, row_values_);
        double se = 0;
        for (std::size_t i = 0; i < row_values_.size(); ++i) {
            const double d = row_values_[i] - residuals_[i];
            se += d * d;
        }
        return std::sqrt(se / std::max<double>(1.0, static_cast<double>(row_values_.size())));
    }

    const Rows& rows_;
    double lambda_;
    std::vector<double> w_;  // the change from the prior
    std::vector<double> r_;  // the residual of the normal equations
    std::vector<double> inverse_;
    std::vector<double> row_values_;
    std::vector<float> residuals_;  // y - A w0
    std::size_t active_ = 0;
};

}  // namespace

bool is_test_sample(const Sample& s, std::uint64_t seed, int test_permille) noexcept {
    const Position key{s.player, s.opponent ^ (seed * 0x9e3779b97f4a7c15ULL)};
    return static_cast<int>(key.hash() % 1000) < test_permille;
}

PhaseReport fit_phase(std::span<const Sample> samples, int phase, const FitConfig& config, std::int16_t* out,
                      const FitProgress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    const PhaseRows rows = phase_rows(samples, phase, config);
    PhaseReport report;
    report.phase = phase;
    report.train_count = rows.train.features.size();
    report.test_count = rows.test.features.size();
    report.zero_train_mae = zero_mae(rows.train);
    report.zero_test_mae = zero_mae(rows.test);

    // The prior w0 (warm start) in discs, else 0; the fit finds the change w - w0.
    std::vector<double> prior(kWeightsPerPhase, 0.0);
    if (config.warm_start) {
        for (std::size_t f = 0; f < prior.size(); ++f) prior[f] = static_cast<double>(out[f]) / kWeightScale;
        report.prior_train_mae = quantised_errors(rows.train, out).mae;
        report.prior_test_mae = quantised_errors(rows.test, out).mae;
    }
    RidgeFit fit(rows.train, config, prior);
    report.active_weights = fit.active_weights();
    fit.solve(config.iterations,
              progress ? [&](int it, double rmse) { progress(phase, it, rmse); } : std::function<void(int, double)>{});
    for (std::size_t f = 0; f < prior.size(); ++f) {
        const double v = std::round((prior[f] + fit.change()[f]) * kWeightScale);
        out[f] = static_cast<std::int16_t>(v < -32767 ? -32767 : (v > 32767 ? 32767 : v));
    }
    const Errors tr = quantised_errors(rows.train, out);
    const Errors te = quantised_errors(rows.test, out);
    report.train_mae = tr.mae;
    report.train_rmse = tr.rmse;
    report.test_mae = te.mae;
    report.test_rmse = te.rmse;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report;
}

}  // namespace reversi::eval
