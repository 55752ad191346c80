#include "protocol/text/tokens.hpp"

#include <charconv>

namespace reversi::text {

namespace {
constexpr bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}
}  // namespace

std::vector<std::string_view> split_tokens(std::string_view line) {
    std::vector<std::string_view> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_space(line[i])) ++i;
        if (i > start) tokens.push_back(line.substr(start, i - start));
    }
    return tokens;
}

std::string_view first_token(std::string_view line) noexcept {
    std::size_t start = 0;
    while (start < line.size() && is_space(line[start])) ++start;
    std::size_t end = start;
    while (end < line.size() && !is_space(line[end])) ++end;
    return line.substr(start, end - start);
}

std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

std::string quote(std::string_view token) {
    constexpr std::size_t kMax = 40;
    std::string out = "'";
    for (std::size_t i = 0; i < token.size() && i < kMax; ++i) {
        const auto c = static_cast<unsigned char>(token[i]);
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    if (token.size() > kMax) out += "...";
    out += "'";
    return out;
}

std::string_view rest_after_tokens(std::string_view line, std::size_t skip) {
    std::size_t i = 0;
    for (std::size_t t = 0; t < skip; ++t) {
        while (i < line.size() && is_space(line[i])) ++i;
        while (i < line.size() && !is_space(line[i])) ++i;
    }
    while (i < line.size() && is_space(line[i])) ++i;
    std::size_t end = line.size();
    while (end > i && is_space(line[end - 1])) --end;
    return line.substr(i, end - i);
}

Expected<std::int64_t> parse_integer(std::string_view token, std::int64_t min, std::int64_t max,
                                     std::string_view what) {
    std::int64_t value = 0;
    const char* first = token.data();
    const char* last = token.data() + token.size();
    if (first != last && *first == '+') ++first;
    const auto [end, ec] = std::from_chars(first, last, value);
    if (token.empty() || ec == std::errc::result_out_of_range) {
        if (!token.empty()) {
            return make_error(std::string(what) + ": " + quote(token) + " is out of range [" + std::to_string(min) +
                              ", " + std::to_string(max) + "]");
        }
        return make_error(std::string(what) + ": missing number");
    }
    if (ec != std::errc() || end != last) {
        return make_error(std::string(what) + ": " + quote(token) + " is not a whole number");
    }
    if (value < min || value > max) {
        return make_error(std::string(what) + ": " + std::to_string(value) + " is out of range [" +
                          std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return value;
}

}  // namespace reversi::text
