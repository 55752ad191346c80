#pragma once
// The trained pattern evaluation: the sum of the kFeatureCount weights a position activates in its
// phase's table (see pattern_layout.hpp), in 1/kWeightScale disc, rounded to discs and clamped to
// [-64, 64]. Weights come from the embedded default file or from a weights file; both loaders return
// an error (never crash) on a missing, truncated or corrupted file, so the caller can fall back to
// another evaluation.
#include <memory>
#include <string>
#include <string_view>

#include "engine/eval/evaluator.hpp"
#include "engine/eval/pattern/blended_weights.hpp"
#include "engine/eval/pattern/features.hpp"
#include "engine/eval/weights/weights_file.hpp"

namespace reversi::eval {

class PatternEvaluator final : public Evaluator {
public:
    // Builds the set's blended tables (blended_weights.hpp) once; copies of the evaluator share them.
    explicit PatternEvaluator(std::shared_ptr<const WeightSet> weights);

    // The weights shipped in the binary (engine/eval/weights/default_weights_data.cpp).
    [[nodiscard]] static Expected<PatternEvaluator> embedded_default();
    [[nodiscard]] static Expected<PatternEvaluator> from_file(const std::string& path);

    [[nodiscard]] int evaluate(const Position& pos) const noexcept override;
    [[nodiscard]] std::string_view name() const noexcept override { return "pattern"; }

    // The unrounded, unclamped sum in 1/kWeightScale disc (finer move ordering, training checks).
    [[nodiscard]] int evaluate_units(const Position& pos) const noexcept;
    // The same two values from the instances' indices kept by the search (instance_indices.hpp);
    // precondition: indices == instance_indices(pos).
    [[nodiscard]] int evaluate_units(const Position& pos, const InstanceIndices& indices) const noexcept;
    [[nodiscard]] int evaluate(const Position& pos, const InstanceIndices& indices) const noexcept;
    // The same with the side to move's legal moves given; precondition: also moves == pos.moves().
    [[nodiscard]] int evaluate_units(const Position& pos, const InstanceIndices& indices,
                                     Bitboard moves) const noexcept;
    [[nodiscard]] const WeightSet& weights() const noexcept { return *weights_; }

    // Whether the evaluation reads the blended tables (false: the two phase tables, for a set whose
    // weights are too large to blend in an int16, or when their memory was not available).
    [[nodiscard]] bool blended() const noexcept { return blended_ != nullptr; }

private:
    std::shared_ptr<const WeightSet> weights_;
    std::shared_ptr<const BlendedWeights> blended_;
};

// Rounds a sum in 1/kWeightScale disc to the nearest disc, clamped to [-64, 64].
[[nodiscard]] constexpr int units_to_discs(int units) noexcept {
    const int discs = (units + kWeightScale / 2) >> 5;
    static_assert(kWeightScale == 32, "units_to_discs shifts by log2(kWeightScale)");
    return discs < -64 ? -64 : (discs > 64 ? 64 : discs);
}

}  // namespace reversi::eval
