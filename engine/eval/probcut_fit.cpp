#include "engine/eval/probcut_fit.hpp"

#include <algorithm>
#include <cmath>

namespace reversi::eval {

void ProbCutStats::add(int phase, int shallow, int deep, double shallow_value, double deep_value) noexcept {
    if (!in_range(phase, shallow, deep)) return;
    Sums& s = sums_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(shallow)][static_cast<std::size_t>(deep)];
    s.n += 1;
    s.sx += shallow_value;
    s.sy += deep_value;
    s.sxx += shallow_value * shallow_value;
    s.sxy += shallow_value * deep_value;
    s.syy += deep_value * deep_value;
}

void ProbCutStats::merge(const ProbCutStats& other) noexcept {
    for (std::size_t p = 0; p < sums_.size(); ++p) {
        for (std::size_t s = 0; s < sums_[p].size(); ++s) {
            for (std::size_t d = 0; d < sums_[p][s].size(); ++d) {
                Sums& a = sums_[p][s][d];
                const Sums& b = other.sums_[p][s][d];
                a.n += b.n, a.sx += b.sx, a.sy += b.sy, a.sxx += b.sxx, a.sxy += b.sxy, a.syy += b.syy;
            }
        }
    }
}

double ProbCutStats::count(int phase, int shallow, int deep) const noexcept {
    if (!in_range(phase, shallow, deep)) return 0;
    return sums_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(shallow)][static_cast<std::size_t>(deep)].n;
}

ProbCutFit ProbCutStats::fit(int phase, int shallow, int deep) const noexcept {
    ProbCutFit f;
    if (!in_range(phase, shallow, deep)) return f;
    const Sums& l =
        sums_[static_cast<std::size_t>(phase)][static_cast<std::size_t>(shallow)][static_cast<std::size_t>(deep)];
    f.n = l.n;
    if (l.n < 2) return f;
    const double mx = l.sx / l.n;
    const double my = l.sy / l.n;
    const double var_x = l.sxx / l.n - mx * mx;
    const double cov = l.sxy / l.n - mx * my;
    const double var_y = l.syy / l.n - my * my;
    f.a = var_x > 1e-9 ? cov / var_x : 1.0;
    f.b = my - f.a * mx;
    // Residual variance of the least-squares line: var_y - a * cov (with n - 2 degrees of freedom).
    const double residual = std::max(0.0, var_y - f.a * cov) * l.n / std::max(1.0, l.n - 2);
    f.sigma = std::sqrt(residual);
    return f;
}

ProbCutModel ProbCutStats::model(double min_samples) const {
    ProbCutModel m;
    for (int p = 0; p < kPhaseCount; ++p) {
        for (int d = ProbCutModel::kMinDepth; d <= ProbCutModel::kMaxDepth; ++d) {
            const int s = probcut_shallow_depth(d);
            const ProbCutFit f = fit(p, s, d);
            if (f.n < min_samples || !(f.a > 0) || !(f.sigma > 0) || !std::isfinite(f.a) || !std::isfinite(f.b) ||
                !std::isfinite(f.sigma)) {
                continue;
            }
            ProbCutLine& l = m.lines[static_cast<std::size_t>(p)][static_cast<std::size_t>(d)];
            l.shallow = static_cast<std::int8_t>(s);
            l.a = static_cast<float>(f.a);
            l.b = static_cast<float>(f.b);
            l.sigma = static_cast<float>(f.sigma);
        }
    }
    return m;
}

}  // namespace reversi::eval
