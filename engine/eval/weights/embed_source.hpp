#pragma once
// The C++ source that embeds a weights file in the binary (default_weights_data.cpp is this output).
#include <cstdint>
#include <span>
#include <string>

namespace reversi::eval {

[[nodiscard]] std::string embed_source(std::span<const std::uint8_t> bytes, const std::string& origin);

}  // namespace reversi::eval
