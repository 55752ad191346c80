#pragma once
// Simple untrained evaluations used as baselines when measuring the trained one (docs/eval.md).
//   DiscDifferenceEvaluator  discs of the side to move minus the other side's
//   MobilityCornerEvaluator  (mobility difference) + 3 x (corner difference): the textbook rule of thumb
#include "engine/eval/evaluator.hpp"

namespace reversi::eval {

class DiscDifferenceEvaluator final : public Evaluator {
public:
    [[nodiscard]] int evaluate(const Position& pos) const noexcept override {
        return popcount(pos.player) - popcount(pos.opponent);
    }
    [[nodiscard]] std::string_view name() const noexcept override { return "discs"; }
};

class MobilityCornerEvaluator final : public Evaluator {
public:
    [[nodiscard]] int evaluate(const Position& pos) const noexcept override {
        const int mobility = popcount(pos.moves()) - popcount(pos.opponent_moves());
        const int corners = popcount(pos.player & kCorners) - popcount(pos.opponent & kCorners);
        const int v = mobility + 3 * corners;
        return v < -64 ? -64 : (v > 64 ? 64 : v);
    }
    [[nodiscard]] std::string_view name() const noexcept override { return "mobility+corners"; }
};

}  // namespace reversi::eval
