#include "engine/search/probcut_search.hpp"

namespace reversi {

double selectivity_quantile(int percent) noexcept {
    if (percent >= kMaxSelectivityPercent) return std::numeric_limits<double>::infinity();
    const double p = static_cast<double>(std::max(percent, 0)) / 100.0;
    // Two-sided: P(|Z| <= t) = p, i.e. erf(t / sqrt(2)) = p; erf is increasing, so bisect on [0, 10].
    double lo = 0.0;
    double hi = 10.0;
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (std::erf(mid / std::sqrt(2.0)) < p) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return 0.5 * (lo + hi);
}

}  // namespace reversi
