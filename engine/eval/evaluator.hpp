#pragma once
// The midgame evaluation is a replaceable component: the search calls it at the horizon through this
// interface. Scores are in discs from the side to move's point of view, within [-64, 64] (the same
// unit as exact final scores; protocols print 100 centi-discs per disc).
#include <string_view>

#include "engine/board/position.hpp"

namespace reversi {

class Evaluator {
public:
    virtual ~Evaluator() = default;
    [[nodiscard]] virtual int evaluate(const Position& pos) const noexcept = 0;
    [[nodiscard]] virtual std::string_view name() const noexcept = 0;
};

}  // namespace reversi
