#pragma once
// Text that goes into an output line as it came from outside (a token, a file path, a message quoting
// them): printable, valid UTF-8 and bounded, so that no input can put control bytes, malformed UTF-8 or
// an unbounded copy of itself into the protocol's output.
#include <cstddef>
#include <string>
#include <string_view>

namespace reversi::text {

// The longest message printable() keeps: longer ones are cut and end with "...".
inline constexpr std::size_t kMaxMessageBytes = 1024;

// The length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong form, no surrogate,
// nothing beyond U+10FFFF), or 0 when the bytes there are not one. Precondition: i < text.size().
[[nodiscard]] std::size_t utf8_length(std::string_view text, std::size_t i) noexcept;

// `text` with printable ASCII and well-formed UTF-8 characters kept, every other byte (control characters,
// malformed UTF-8) as '?', cut after `max` bytes (never inside a character) with "..." added.
[[nodiscard]] std::string printable(std::string_view text, std::size_t max = kMaxMessageBytes);

}  // namespace reversi::text
