#pragma once
// Fitting the Multi-ProbCut calibration (probcut_model.hpp) from pairs of search values: for every
// phase, node depth d and shallow depth s, the least-squares line deep = a * shallow + b over the
// positions searched at both depths, and sigma, the standard deviation of its residual. The shallow
// depth the model keeps for each node depth is probcut_shallow_depth(d). `reversi-train probcut`
// collects the values (fixed-depth NegaScout with the pattern evaluation) and stores the model.
#include <array>
#include <cstddef>

#include "engine/eval/pattern/pattern_layout.hpp"
#include "engine/eval/probcut_model.hpp"

namespace reversi::eval {

// The shallow depth searched for a node of `depth` remaining plies: the depth nearest to depth / 2 that
// has the same parity as `depth` (the evaluation has a side-to-move bias, so values of odd and even
// depths differ systematically), the lower one on a tie; 0 (the static evaluation) for depth 2:
// 2->0 3->1 4->2 5->3 6->2 7->3 8->4 9->5 10->4 11->5 12->6 13->7 14->6 15->7 16->8.
[[nodiscard]] constexpr int probcut_shallow_depth(int depth) noexcept {
    int s = (depth + 1) / 2;
    if ((depth - s) % 2 != 0) --s;
    return s < 0 ? 0 : s;
}
static_assert(probcut_shallow_depth(2) == 0 && probcut_shallow_depth(3) == 1 && probcut_shallow_depth(16) == 8);

struct ProbCutFit {
    double n = 0;  // samples
    double a = 1.0;
    double b = 0.0;
    double sigma = 0.0;  // residual standard deviation (discs)
};

// Sums of (shallow, deep) value pairs per phase and depth pair; add() in any order, fit() any time.
class ProbCutStats {
public:
    static constexpr int kDepths = ProbCutModel::kMaxDepth + 1;

    // One position of `phase` searched to `shallow` and to `deep` plies (values in discs).
    void add(int phase, int shallow, int deep, double shallow_value, double deep_value) noexcept;
    // Merges another set of sums (per-thread accumulation).
    void merge(const ProbCutStats& other) noexcept;
    [[nodiscard]] ProbCutFit fit(int phase, int shallow, int deep) const noexcept;
    [[nodiscard]] double count(int phase, int shallow, int deep) const noexcept;

    // The model: for every phase and depth in [kMinDepth, kMaxDepth], the line of probcut_shallow_depth(d)
    // when at least `min_samples` positions were measured and the fit is usable (a > 0, sigma > 0);
    // other cells stay invalid.
    [[nodiscard]] ProbCutModel model(double min_samples) const;

private:
    struct Sums {
        double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    };
    [[nodiscard]] static bool in_range(int phase, int shallow, int deep) noexcept {
        return phase >= 0 && phase < kPhaseCount && shallow >= 0 && shallow < deep && deep < kDepths;
    }
    std::array<std::array<std::array<Sums, kDepths>, kDepths>, kPhaseCount> sums_{};
};

}  // namespace reversi::eval
