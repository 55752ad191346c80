#pragma once
// Splitting protocol lines into tokens and reading numbers from them with range checks. Error messages
// quote the offending token in a printable, bounded form so that garbage input never garbles the output.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/expected.hpp"

namespace reversi::text {

// Whitespace-separated tokens (space, tab, CR, LF, VT, FF).
[[nodiscard]] std::vector<std::string_view> split_tokens(std::string_view line);
// The first of those tokens (empty when there is none), found without looking further into the line.
[[nodiscard]] std::string_view first_token(std::string_view line) noexcept;
// Lower-case ASCII copy.
[[nodiscard]] std::string lowercase(std::string_view s);
[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept;
// A quoted, printable copy of `token` for error messages: control and non-ASCII bytes become '?', and
// long tokens are cut at 40 characters with "...".
[[nodiscard]] std::string quote(std::string_view token);
// The text after the first `skip` tokens, with surrounding whitespace removed.
[[nodiscard]] std::string_view rest_after_tokens(std::string_view line, std::size_t skip);

// A whole decimal integer in [min, max]; `what` names the field in the error ("go depth").
[[nodiscard]] Expected<std::int64_t> parse_integer(std::string_view token, std::int64_t min, std::int64_t max,
                                                   std::string_view what);

}  // namespace reversi::text
