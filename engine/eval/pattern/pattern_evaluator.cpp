#include "engine/eval/pattern/pattern_evaluator.hpp"

#include "engine/eval/weights/default_weights.hpp"

namespace reversi::eval {

namespace {

// The embedded weights, decoded once per process and immutable afterwards: every evaluator made from
// them (each session's searcher and endgame solver) shares this one table set (8.2 MB) and its blended
// tables (49 MB).
Expected<std::shared_ptr<const WeightSet>> decode_embedded() {
    auto set = decode_weights(default_weights_bytes(), "(embedded default)");
    if (!set) return set.error();
    if (set->trained_mask != kAllPhasesMask)
        return make_error("weights (embedded default): not every phase is trained");
    return std::make_shared<const WeightSet>(std::move(*set));
}

}  // namespace

PatternEvaluator::PatternEvaluator(std::shared_ptr<const WeightSet> weights) : weights_(std::move(weights)) {
    if (auto blended = BlendedWeights::build(*weights_)) {
        blended_ = std::make_shared<const BlendedWeights>(std::move(*blended));
    }
}

Expected<PatternEvaluator> PatternEvaluator::embedded_default() {
    // One evaluator per process: its copies share the weights and the blended tables.
    static const Expected<PatternEvaluator> shared = []() -> Expected<PatternEvaluator> {
        auto set = decode_embedded();
        if (!set) return set.error();
        return PatternEvaluator(*set);
    }();
    return shared;
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
    if (blended_) return sum_feature_weights(pos, blended_->table(empties_of(pos))) / kBlendDenominator;
    const PhaseBlend blend = phase_blend(empties_of(pos));
    const PhaseSums sums = sum_feature_weights(pos, weights_->phase(blend.phase), weights_->phase(blend.other));
    if (blend.other_weight == 0) return sums.first;
    return (sums.first * (kBlendDenominator - blend.other_weight) + sums.second * blend.other_weight) /
           kBlendDenominator;
}

int PatternEvaluator::evaluate_units(const Position& pos, const InstanceIndices& indices) const noexcept {
    return evaluate_units(pos, indices, legal_moves(pos.player, pos.opponent));
}

int PatternEvaluator::evaluate_units(const Position& pos, const InstanceIndices& indices,
                                     Bitboard moves) const noexcept {
    if (!blended_) return evaluate_units(pos);
    return sum_feature_weights(pos, indices, blended_->table(empties_of(pos)), moves) / kBlendDenominator;
}

int PatternEvaluator::evaluate(const Position& pos, const InstanceIndices& indices) const noexcept {
    return units_to_discs(evaluate_units(pos, indices));
}

int PatternEvaluator::evaluate(const Position& pos) const noexcept { return units_to_discs(evaluate_units(pos)); }

}  // namespace reversi::eval
