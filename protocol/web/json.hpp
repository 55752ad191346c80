#pragma once
// The little JSON the web API needs (RFC 8259): a parser into a value tree, with limits for untrusted
// input (nesting depth, number of values; the caller caps the text's length), and a writer for flat objects. Numbers
// are doubles; strings are UTF-8 (\u escapes, surrogate pairs included, are decoded; other bytes are kept as they are).
// No exceptions: a parse error says what and where.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/expected.hpp"

namespace reversi::web {

struct JsonMember;

struct JsonValue {
    enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<JsonValue> array;
    std::vector<JsonMember> object;  // in the text's order; the last of a repeated name wins

    // The member `key` of an object (the last one of that name), or nullptr.
    [[nodiscard]] const JsonValue* find(std::string_view key) const noexcept;
};

struct JsonMember {
    std::string name;
    JsonValue value;
};

inline constexpr int kMaxJsonDepth = 32;
// Values in one document (members' values and array elements included): each takes about 100 bytes
// parsed, so a 16 MiB message of `[0,0,0,...]` (8 M values) would take about a gigabyte; the web API's
// largest message has a few hundred.
inline constexpr int kMaxJsonValues = 65536;

[[nodiscard]] Expected<JsonValue> parse_json(std::string_view text);

// A JSON string literal, quotes included, always valid UTF-8: a byte that is not part of a well-formed
// UTF-8 sequence is written as \ufffd (the replacement character).
[[nodiscard]] std::string json_quote(std::string_view text);

// Builds one object: JsonObject().add("type", "info").add("depth", 3).str().
class JsonObject {
public:
    JsonObject& add(std::string_view key, std::string_view value);
    JsonObject& add(std::string_view key, const char* value) { return add(key, std::string_view(value)); }
    JsonObject& add(std::string_view key, std::int64_t value);
    JsonObject& add(std::string_view key, int value) { return add(key, static_cast<std::int64_t>(value)); }
    JsonObject& add(std::string_view key, bool value);
    JsonObject& add(std::string_view key, const std::vector<std::string>& values);
    JsonObject& add_null(std::string_view key);
    // `json` is written as it is (an already encoded value).
    JsonObject& add_raw(std::string_view key, std::string_view json);
    [[nodiscard]] std::string str() const { return text_ + "}"; }

private:
    void key(std::string_view name);
    std::string text_ = "{";
};

}  // namespace reversi::web
