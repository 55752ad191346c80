#include "protocol/text/printable.hpp"

#include <algorithm>

namespace reversi::text {

std::size_t utf8_length(std::string_view text, std::size_t i) noexcept {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return 1;
    std::size_t n = 0;
    unsigned char low = 0x80;  // the second byte's range, narrowed where the lead byte requires it
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        n = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        n = 3;
        if (lead == 0xE0) low = 0xA0;   // overlong
        if (lead == 0xED) high = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        n = 4;
        if (lead == 0xF0) low = 0x90;   // overlong
        if (lead == 0xF4) high = 0x8F;  // beyond U+10FFFF
    } else {
        return 0;
    }
    if (text.size() - i < n || byte(i + 1) < low || byte(i + 1) > high) return 0;
    for (std::size_t k = 2; k < n; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    }
    return n;
}

std::string printable(std::string_view text, std::size_t max) {
    std::string out;
    out.reserve(std::min(text.size(), max + 3));
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c < 0x80 ? 1 : utf8_length(text, i);
        if (out.size() + std::max<std::size_t>(n, 1) > max) return out + "...";
        if (n > 1) {
            out += text.substr(i, n);
        } else {
            out += (n == 1 && c >= 0x20 && c != 0x7F) ? static_cast<char>(c) : '?';
        }
        i += std::max<std::size_t>(n, 1);
    }
    return out;
}

}  // namespace reversi::text
