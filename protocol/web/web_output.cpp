// WebApi::encode: the session's output lines as web API messages (docs/web.md).
#include <charconv>
#include <cstdio>
#include <optional>

#include "protocol/text/tokens.hpp"
#include "protocol/web/web_api.hpp"

namespace reversi::web {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::optional<std::int64_t> number(std::string_view token) {
    std::int64_t value = 0;
    const auto r = std::from_chars(token.data(), token.data() + token.size(), value);
    if (r.ec != std::errc() || r.ptr != token.data() + token.size()) return std::nullopt;
    return value;
}

// "score cp N" is 100 per disc: the score in discs, as a JSON number ("-3.5", "2", "0.25").
std::string discs(std::int64_t centi) {
    char text[32];
    const std::int64_t a = centi < 0 ? -centi : centi;
    std::snprintf(text, sizeof text, "%s%lld.%02lld", centi < 0 ? "-" : "", static_cast<long long>(a / 100),
                  static_cast<long long>(a % 100));
    std::string out = text;
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
    return out;
}

}  // namespace

std::string info_message(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.size() < 3 || tokens[0] != "info" || tokens[1] != "depth") return {};
    JsonObject msg;
    msg.add("type", "info");
    bool has_multipv = false;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string_view key = tokens[i];
        if (key == "pv") {
            std::vector<std::string> pv(tokens.begin() + static_cast<std::ptrdiff_t>(i) + 1, tokens.end());
            msg.add("pv", pv);
            break;
        }
        if (key == "lowerbound" || key == "upperbound") {
            msg.add("bound", key == "lowerbound" ? "lower" : "upper");
            continue;
        }
        if (key == "score" && i + 2 < tokens.size() && tokens[i + 1] == "cp") {
            if (auto cp = number(tokens[i + 2])) msg.add_raw("score", discs(*cp));
            i += 2;
            continue;
        }
        if (i + 1 < tokens.size()) {
            if (auto value = number(tokens[i + 1])) {
                has_multipv |= key == "multipv";
                msg.add(key, *value);
                ++i;
            }
        }
    }
    if (!has_multipv) msg.add("multipv", 1);
    return msg.str();
}

std::string WebApi::encode(std::string_view line) {
    if (starts_with(line, "info depth ")) {
        if (auto info = info_message(line); !info.empty()) return info;
    }
    const auto tokens = text::split_tokens(line);
    if (!tokens.empty() && tokens[0] == "bestmove" && tokens.size() >= 2) {
        JsonObject msg;
        msg.add("type", "bestmove").add("move", tokens[1]);
        if (tokens.size() >= 4 && tokens[2] == "ponder") msg.add("ponder", tokens[3]);
        return msg.str();
    }
    if (line == "readyok") return JsonObject().add("type", "readyok").str();
    for (std::string_view prefix : {"info string error: ", "status error: "}) {
        if (starts_with(line, prefix)) return error_message(line.substr(prefix.size()));
    }
    return JsonObject().add("type", "line").add("text", line).str();
}

}  // namespace reversi::web
