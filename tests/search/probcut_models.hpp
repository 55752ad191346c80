#pragma once
// Hand-built Multi-ProbCut calibrations for the tests (the shape of the measured table in docs/eval.md:
// a ~ 1, b ~ 0, sigma ~ 4 discs), independent of the model stored with the weights.
#include "engine/eval/probcut_model.hpp"

namespace reversi::testing {

enum class ShallowRule { MinusTwo, Half };

// Every phase and every depth kMinDepth..kMaxDepth: shallow = d - 2 or d / 2, a, b, sigma.
inline eval::ProbCutModel uniform_probcut_model(float sigma, ShallowRule rule = ShallowRule::MinusTwo, float a = 1.0F,
                                                float b = 0.0F) {
    eval::ProbCutModel m;
    for (auto& phase : m.lines) {
        for (int d = eval::ProbCutModel::kMinDepth; d <= eval::ProbCutModel::kMaxDepth; ++d) {
            eval::ProbCutLine& l = phase[static_cast<std::size_t>(d)];
            l.shallow = static_cast<std::int8_t>(rule == ShallowRule::MinusTwo ? d - 2 : d / 2);
            l.a = a;
            l.b = b;
            l.sigma = sigma;
        }
    }
    return m;
}

}  // namespace reversi::testing
