#include "engine/eval/pattern/pattern_evaluator.hpp"

#include "engine/eval/weights/default_weights.hpp"

namespace reversi::eval {

Expected<PatternEvaluator> PatternEvaluator::embedded_default() {
    auto set = decode_weights(default_weights_bytes(), "(embedded default)");
    if (!set) return set.error();
    if (set->trained_mask != kAllPhasesMask)
        return make_error("weights (embedded default): not every phase is trained");
    return PatternEvaluator(std::make_shared<const WeightSet>(std::move(*set)));
}

Expected<PatternEvaluator> PatternEvaluator::from_file(const std::string& path) {
    auto set = load_weights_file(path);
    if (!set) return set.error();
    if (set->trained_mask != kAllPhasesMask) {
        return make_error("weights " + path + ": not every phase is trained (an interrupted training run?)");
    }
    return PatternEvaluator(std::make_shared<const WeightSet>(std::move(*set)));
}

int PatternEvaluator::evaluate_units(const Position& pos) const noexcept {
    FeatureIndices features;
    extract_features(pos, features);
    const PhaseBlend blend = phase_blend(empties_of(pos));
    const std::int16_t* w = weights_->phase(blend.phase);
    int sum = 0;
    for (std::uint32_t f : features) sum += w[f];
    if (blend.other_weight == 0) return sum;
    const std::int16_t* v = weights_->phase(blend.other);
    int other = 0;
    for (std::uint32_t f : features) other += v[f];
    return (sum * (kBlendDenominator - blend.other_weight) + other * blend.other_weight) / kBlendDenominator;
}

int PatternEvaluator::evaluate(const Position& pos) const noexcept { return units_to_discs(evaluate_units(pos)); }

}  // namespace reversi::eval
