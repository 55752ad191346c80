#include "engine/eval/pattern/instance_indices.hpp"

namespace reversi::eval {

InstanceIndices instance_indices(const Position& pos) noexcept {
    InstanceIndices out;
    const auto add = [](IndexLanes& lanes, int square, int digit) {
        const IndexLanes& unit = kSquareDigits[static_cast<std::size_t>(square)];
        for (std::size_t i = 0; i < kIndexLanes; ++i) lanes[i] = static_cast<std::uint16_t>(lanes[i] + digit * unit[i]);
    };
    for (int sq : squares(pos.player)) {
        add(out.own, sq, 1);
        add(out.other, sq, 2);
    }
    for (int sq : squares(pos.opponent)) {
        add(out.own, sq, 2);
        add(out.other, sq, 1);
    }
    return out;
}

}  // namespace reversi::eval
