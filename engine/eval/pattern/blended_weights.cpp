#include "engine/eval/pattern/blended_weights.hpp"

#include <algorithm>
#include <cstdlib>

namespace reversi::eval {

namespace {

// Fills the 60 tables. Not instrumented by ThreadSanitizer: it runs on one thread before the tables are
// shared (the evaluator's shared_ptr publishes them), and the instrumentation of its 25 million int16
// accesses was most of the engine's start-up under TSan (1.8 s, before every server test's first reply).
__attribute__((no_sanitize("thread"))) void fill_tables(const WeightSet& set, std::int16_t* tables) noexcept {
    for (int e = 0; e < kBlendedTableCount; ++e) {
        const PhaseBlend blend = phase_blend(e);
        const std::int16_t* first = set.phase(blend.phase);
        const std::int16_t* second = set.phase(blend.other);
        const int first_weight = kBlendDenominator - blend.other_weight;
        std::int16_t* out = tables + static_cast<std::size_t>(e) * kWeightsPerPhase;
        for (int i = 0; i < kWeightsPerPhase; ++i) {
            out[i] = static_cast<std::int16_t>(first[i] * first_weight + second[i] * blend.other_weight);
        }
    }
}

__attribute__((no_sanitize("thread"))) bool fits_int16(const WeightSet& set) noexcept {
    return std::all_of(set.weights.begin(), set.weights.end(),
                       [](std::int16_t w) { return std::abs(int{w}) <= kMaxBlendableWeight; });
}

}  // namespace

std::optional<BlendedWeights> BlendedWeights::build(const WeightSet& set) {
    if (!fits_int16(set)) return std::nullopt;
    // Every entry is written below: no value-initialising pass over the 49 MB first.
    void* memory = allocate_huge(std::size_t{kBlendedTableCount} * kWeightsPerPhase * sizeof(std::int16_t));
    if (!memory) return std::nullopt;
    HugeArray<std::int16_t> weights(static_cast<std::int16_t*>(memory));
    fill_tables(set, weights.get());
    return BlendedWeights(std::move(weights));
}

}  // namespace reversi::eval
