#include "engine/eval/pattern/training/fitter.hpp"

#include <chrono>
#include <cmath>
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

}  // namespace

bool is_test_sample(const Sample& s, std::uint64_t seed, int test_permille) noexcept {
    const Position key{s.player, s.opponent ^ (seed * 0x9e3779b97f4a7c15ULL)};
    return static_cast<int>(key.hash() % 1000) < test_permille;
}

PhaseReport fit_phase(std::span<const Sample> samples, int phase, const FitConfig& config, std::int16_t* out,
                      const FitProgress& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    Rows train;
    Rows test;
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
        Rows& rows = held_out ? test : train;
        rows.features.emplace_back();
        extract_features(pos, rows.features.back());
        rows.targets.push_back(s.target);
    }
    PhaseReport report;
    report.phase = phase;
    report.train_count = train.features.size();
    report.test_count = test.features.size();
    report.zero_train_mae = zero_mae(train);
    report.zero_test_mae = zero_mae(test);

    const std::size_t n = kWeightsPerPhase;
    const double lambda = config.lambda;
    // The prior w0 (warm start) in discs, else 0; w below is the fitted change w - w0.
    std::vector<double> prior(n, 0.0);
    if (config.warm_start) {
        for (std::size_t f = 0; f < n; ++f) prior[f] = static_cast<double>(out[f]) / kWeightScale;
        report.prior_train_mae = quantised_errors(train, out).mae;
        report.prior_test_mae = quantised_errors(test, out).mae;
    }
    std::vector<double> w(n, 0.0), r(n, 0.0), z(n), p(n), q(n), diag(n, lambda);
    std::vector<double> row_values(train.features.size());
    for (const auto& features : train.features) {
        for (std::uint32_t f : features) diag[f] += 1.0;
    }
    // The residual targets y - A w0 (y itself in a cold fit); r = A^T (y - A w0) - (A^T A + lambda) w, w = 0.
    std::vector<float> residuals = train.targets;
    if (config.warm_start) {
        multiply(train, prior, row_values);
        for (std::size_t i = 0; i < residuals.size(); ++i)
            residuals[i] = static_cast<float>(residuals[i] - row_values[i]);
    }
    for (std::size_t i = 0; i < residuals.size(); ++i) row_values[i] = residuals[i];
    multiply_transposed(train, row_values, r);
    // Weights below the count threshold are frozen at 0: their preconditioner entry is 0.
    std::vector<double> inverse(n, 0.0);
    for (std::size_t f = 0; f < n; ++f) {
        if (diag[f] - lambda >= config.min_count) {
            inverse[f] = 1.0 / diag[f];
            ++report.active_weights;
        }
    }
    for (std::size_t f = 0; f < n; ++f) p[f] = z[f] = r[f] * inverse[f];
    double rz = dot(r, z);
    for (int it = 1; it <= config.iterations && rz > 1e-12; ++it) {
        multiply(train, p, row_values);
        for (std::size_t f = 0; f < n; ++f) q[f] = lambda * p[f];
        multiply_transposed(train, row_values, q);
        const double pq = dot(p, q);
        if (pq <= 0) break;
        const double alpha = rz / pq;
        for (std::size_t f = 0; f < n; ++f) {
            w[f] += alpha * p[f];
            r[f] -= alpha * q[f];
            z[f] = r[f] * inverse[f];
        }
        const double rz_next = dot(r, z);
        const double beta = rz_next / rz;
        rz = rz_next;
        for (std::size_t f = 0; f < n; ++f) p[f] = z[f] + beta * p[f];
        if (progress && (it % 10 == 0 || it == config.iterations)) {
            multiply(train, w, row_values);
            double se = 0;
            for (std::size_t i = 0; i < row_values.size(); ++i) {
                const double d = row_values[i] - residuals[i];
                se += d * d;
            }
            progress(phase, it, std::sqrt(se / std::max<double>(1.0, static_cast<double>(row_values.size()))));
        }
    }
    for (std::size_t f = 0; f < n; ++f) {
        const double v = std::round((prior[f] + w[f]) * kWeightScale);
        out[f] = static_cast<std::int16_t>(v < -32767 ? -32767 : (v > 32767 ? 32767 : v));
    }
    const Errors tr = quantised_errors(train, out);
    const Errors te = quantised_errors(test, out);
    report.train_mae = tr.mae;
    report.train_rmse = tr.rmse;
    report.test_mae = te.mae;
    report.test_rmse = te.rmse;
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return report;
}

}  // namespace reversi::eval
