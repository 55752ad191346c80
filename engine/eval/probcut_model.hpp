#pragma once
// Multi-ProbCut calibration: for each game phase and each remaining depth d of a search node, the
// shallow depth s searched instead and the least-squares line that predicts the deep value from the
// shallow one, deep ~ a * shallow + b, with sigma the standard deviation of its residual (discs).
// A selective search cuts a node of depth d when a * v_s + b lies outside its window by more than
// t * sigma (t from the confidence level). Measured by `reversi-train probcut` with the pattern
// evaluation and stored with the pattern weights (engine/eval/weights/weights_file.hpp).
#include <array>
#include <cstdint>

#include "engine/eval/pattern/pattern_layout.hpp"

namespace reversi::eval {

struct ProbCutLine {
    std::int8_t shallow = 0;  // depth of the shallow search; 0: the static evaluation (node depth 2)
    float a = 1.0F;
    float b = 0.0F;
    float sigma = 0.0F;  // discs; 0: no calibration for this cell

    [[nodiscard]] constexpr bool valid() const noexcept { return shallow >= 0 && sigma > 0.0F && a > 0.0F; }
};

struct ProbCutModel {
    static constexpr int kMinDepth = 2;   // shallowest node depth that is tried for a cut
    static constexpr int kMaxDepth = 16;  // deepest calibrated node depth

    // lines[phase][depth], depth in [kMinDepth, kMaxDepth] (other entries stay invalid).
    std::array<std::array<ProbCutLine, kMaxDepth + 1>, kPhaseCount> lines{};

    // The calibration for a node of `depth` remaining plies in `phase`, or nullptr when there is none.
    [[nodiscard]] constexpr const ProbCutLine* line(int phase, int depth) const noexcept {
        if (phase < 0 || phase >= kPhaseCount || depth < kMinDepth || depth > kMaxDepth) return nullptr;
        const ProbCutLine& l = lines[static_cast<std::size_t>(phase)][static_cast<std::size_t>(depth)];
        return l.valid() ? &l : nullptr;
    }
    [[nodiscard]] constexpr bool empty() const noexcept {
        for (const auto& phase : lines) {
            for (const auto& l : phase) {
                if (l.valid()) return false;
            }
        }
        return true;
    }
};

}  // namespace reversi::eval
