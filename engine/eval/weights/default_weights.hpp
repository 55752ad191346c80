#pragma once
// The default weights file, embedded in the binary. default_weights_data.cpp is generated from
// engine/data/pattern.weights by `reversi-train embed` (see docs/eval.md); do not edit it by hand.
#include <cstdint>
#include <span>

namespace reversi::eval {

[[nodiscard]] std::span<const std::uint8_t> default_weights_bytes() noexcept;

}  // namespace reversi::eval
