#pragma once
// The phase blend of every empties count, computed once. Table e holds, for each weight index i,
//   w[phase][i] * (kBlendDenominator - other_weight) + w[other][i] * other_weight
// with (phase, other, other_weight) = phase_blend(e) (pattern_layout.hpp). An evaluation then reads
// one table instead of the two phase tables and divides the sum by kBlendDenominator: exactly the value
// of the two-table blend, which also divides after summing. Half the random reads of the evaluation's
// hot loop, for 60 tables of kWeightsPerPhase int16 (49 MB in 2 MiB pages, where the ten phases take
// 8.2 MB). A blended weight must fit an int16: build() refuses a set with a weight beyond
// kMaxBlendableWeight in magnitude, and the evaluator keeps reading the two phase tables.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "engine/core/huge_pages.hpp"
#include "engine/eval/pattern/pattern_layout.hpp"
#include "engine/eval/weights/weights_file.hpp"

namespace reversi::eval {

inline constexpr int kBlendedTableCount = 60;  // empties 0..59 (phase_blend treats 60 as 59)
inline constexpr int kMaxBlendableWeight = INT16_MAX / kBlendDenominator;
static_assert(kMaxBlendableWeight == 2730, "the trained sets stay far below it (1,333 at most in v12)");

class BlendedWeights {
public:
    // nullopt when a weight exceeds kMaxBlendableWeight in magnitude or the memory is not available.
    [[nodiscard]] static std::optional<BlendedWeights> build(const WeightSet& set);

    // The table of a position with `empties` empty squares (clamped to 0..59, as phase_blend does).
    [[nodiscard]] const std::int16_t* table(int empties) const noexcept {
        const int e = empties < 0 ? 0 : (empties >= kBlendedTableCount ? kBlendedTableCount - 1 : empties);
        return weights_.get() + static_cast<std::size_t>(e) * kWeightsPerPhase;
    }

private:
    explicit BlendedWeights(HugeArray<std::int16_t> weights) : weights_(std::move(weights)) {}
    HugeArray<std::int16_t> weights_;
};

}  // namespace reversi::eval
