#include "engine/eval/pattern/blended_weights.hpp"

#include <algorithm>
#include <cstdlib>

namespace reversi::eval {

std::optional<BlendedWeights> BlendedWeights::build(const WeightSet& set) {
    const bool fits = std::all_of(set.weights.begin(), set.weights.end(),
                                  [](std::int16_t w) { return std::abs(int{w}) <= kMaxBlendableWeight; });
    if (!fits) return std::nullopt;
    // Every entry is written below: no value-initialising pass over the 49 MB first.
    void* memory = allocate_huge(std::size_t{kBlendedTableCount} * kWeightsPerPhase * sizeof(std::int16_t));
    if (!memory) return std::nullopt;
    HugeArray<std::int16_t> weights(static_cast<std::int16_t*>(memory));
    for (int e = 0; e < kBlendedTableCount; ++e) {
        const PhaseBlend blend = phase_blend(e);
        const std::int16_t* first = set.phase(blend.phase);
        const std::int16_t* second = set.phase(blend.other);
        const int first_weight = kBlendDenominator - blend.other_weight;
        std::int16_t* out = weights.get() + static_cast<std::size_t>(e) * kWeightsPerPhase;
        for (int i = 0; i < kWeightsPerPhase; ++i) {
            out[i] = static_cast<std::int16_t>(first[i] * first_weight + second[i] * blend.other_weight);
        }
    }
    return BlendedWeights(std::move(weights));
}

}  // namespace reversi::eval
