#include "protocol/web/json.hpp"

#include <charconv>
#include <cmath>

#include "protocol/text/printable.hpp"

namespace reversi::web {

const JsonValue* JsonValue::find(std::string_view key) const noexcept {
    const JsonValue* found = nullptr;
    for (const auto& [name, value] : object) {
        if (name == key) found = &value;
    }
    return found;
}

namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    Expected<JsonValue> document() {
        JsonValue value;
        if (!parse_value(value, 0)) return make_error(error_);
        skip_space();
        if (pos_ != text_.size()) return make_error(at("unexpected text after the value"));
        return value;
    }

private:
    bool fail(const std::string& what) {
        if (error_.empty()) error_ = at(what);
        return false;
    }
    [[nodiscard]] std::string at(const std::string& what) const {
        return "bad JSON at byte " + std::to_string(pos_) + ": " + what;
    }
    void skip_space() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }
    bool literal(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) return fail("expected a value");
        pos_ += word.size();
        return true;
    }

    bool parse_value(JsonValue& out, int depth) {
        if (++values_ > kMaxJsonValues) return fail("more than " + std::to_string(kMaxJsonValues) + " values");
        skip_space();
        if (pos_ >= text_.size()) return fail("unexpected end");
        switch (text_[pos_]) {
            case '{':
                return parse_object(out, depth + 1);
            case '[':
                return parse_array(out, depth + 1);
            case '"':
                out.kind = JsonValue::Kind::String;
                return parse_string(out.string);
            case 't':
                out.kind = JsonValue::Kind::Bool;
                out.boolean = true;
                return literal("true");
            case 'f':
                out.kind = JsonValue::Kind::Bool;
                return literal("false");
            case 'n':
                return literal("null");
            default:
                return parse_number(out);
        }
    }

    bool parse_object(JsonValue& out, int depth) {
        if (depth > kMaxJsonDepth) return fail("nested deeper than " + std::to_string(kMaxJsonDepth));
        out.kind = JsonValue::Kind::Object;
        ++pos_;
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == '}') return ++pos_, true;
        for (;;) {
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != '"') return fail("expected a member name");
            std::string name;
            if (!parse_string(name)) return false;
            skip_space();
            if (pos_ >= text_.size() || text_[pos_] != ':') return fail("expected ':'");
            ++pos_;
            JsonValue value;
            if (!parse_value(value, depth)) return false;
            out.object.push_back(JsonMember{std::move(name), std::move(value)});
            const ListStep step = list_next('}');
            if (step != ListStep::More) return step == ListStep::Closed;
        }
    }

    bool parse_array(JsonValue& out, int depth) {
        if (depth > kMaxJsonDepth) return fail("nested deeper than " + std::to_string(kMaxJsonDepth));
        out.kind = JsonValue::Kind::Array;
        ++pos_;
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == ']') return ++pos_, true;
        for (;;) {
            JsonValue value;
            if (!parse_value(value, depth)) return false;
            out.array.push_back(std::move(value));
            const ListStep step = list_next(']');
            if (step != ListStep::More) return step == ListStep::Closed;
        }
    }

    enum class ListStep { More, Closed, Error };
    // After a member or element: ',' goes on, `close` ends the list, anything else is an error.
    ListStep list_next(char close) {
        skip_space();
        if (pos_ < text_.size() && (text_[pos_] == ',' || text_[pos_] == close)) {
            return text_[pos_++] == ',' ? ListStep::More : ListStep::Closed;
        }
        fail(std::string("expected ',' or '") + close + "'");
        return ListStep::Error;
    }

    bool parse_number(JsonValue& out) {
        const std::size_t start = pos_;
        if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
        const auto digits = [&] {
            const std::size_t from = pos_;
            while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
            return pos_ > from;
        };
        const std::size_t first = pos_;
        if (!digits()) return fail("expected a value");
        if (text_[first] == '0' && pos_ - first > 1) return fail("leading zero in a number");
        if (pos_ < text_.size() && text_[pos_] == '.' && (++pos_, !digits())) return fail("digits expected after '.'");
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            ++pos_;
            if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
            if (!digits()) return fail("digits expected in the exponent");
        }
        const auto result = std::from_chars(text_.data() + start, text_.data() + pos_, out.number);
        if (result.ec != std::errc() || !std::isfinite(out.number)) return fail("number out of range");
        out.kind = JsonValue::Kind::Number;
        return true;
    }

    bool parse_string(std::string& out) {
        ++pos_;  // the opening quote
        while (pos_ < text_.size()) {
            const char c = text_[pos_++];
            if (c == '"') return true;
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= text_.size()) break;
            if (!parse_escape(text_[pos_++], out)) return false;
        }
        return fail("unterminated string");
    }

    bool parse_escape(char c, std::string& out) {
        switch (c) {
            case '"':
            case '\\':
            case '/':
                out += c;
                return true;
            case 'b':
                out += '\b';
                return true;
            case 'f':
                out += '\f';
                return true;
            case 'n':
                out += '\n';
                return true;
            case 'r':
                out += '\r';
                return true;
            case 't':
                out += '\t';
                return true;
            case 'u':
                return parse_unicode(out);
            default:
                return fail("bad escape in a string");
        }
    }

    bool hex4(std::uint32_t& value) {
        if (text_.size() - pos_ < 4) return fail("bad \\u escape");
        value = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            const int digit = h >= '0' && h <= '9'   ? h - '0'
                              : h >= 'a' && h <= 'f' ? h - 'a' + 10
                              : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                     : -1;
            if (digit < 0) return fail("bad \\u escape");
            value = value * 16 + static_cast<std::uint32_t>(digit);
        }
        return true;
    }

    bool parse_unicode(std::string& out) {
        std::uint32_t code = 0;
        if (!hex4(code)) return false;
        if (code >= 0xDC00 && code <= 0xDFFF) return fail("lone low surrogate");
        if (code >= 0xD800 && code <= 0xDBFF) {
            std::uint32_t low = 0;
            if (text_.substr(pos_, 2) != "\\u" || (pos_ += 2, !hex4(low)) || low < 0xDC00 || low > 0xDFFF)
                return fail("high surrogate without a low one");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(code, out);
        return true;
    }

    static void append_utf8(std::uint32_t code, std::string& out) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    int values_ = 0;  // parsed so far (kMaxJsonValues)
    std::string error_;
};

}  // namespace

Expected<JsonValue> parse_json(std::string_view text) { return Parser(text).document(); }

std::string json_quote(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) {
            // Valid UTF-8 as it is; any other byte becomes U+FFFD, so that the output is always valid
            // UTF-8 (a WebSocket text frame must be), whatever bytes a reply repeats.
            const std::size_t n = text::utf8_length(text, i);
            out += n ? text.substr(i, n) : std::string_view("\\ufffd");
            i += n ? n : 1;
            continue;
        }
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (u < 0x20 || u == 0x7F) {
            out += "\\u00";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
        ++i;
    }
    return out + "\"";
}

void JsonObject::key(std::string_view name) {
    if (text_.size() > 1) text_ += ',';
    text_ += json_quote(name);
    text_ += ':';
}

JsonObject& JsonObject::add(std::string_view k, std::string_view value) {
    key(k);
    text_ += json_quote(value);
    return *this;
}

JsonObject& JsonObject::add(std::string_view k, std::int64_t value) {
    key(k);
    text_ += std::to_string(value);
    return *this;
}

JsonObject& JsonObject::add(std::string_view k, bool value) {
    key(k);
    text_ += value ? "true" : "false";
    return *this;
}

JsonObject& JsonObject::add(std::string_view k, const std::vector<std::string>& values) {
    key(k);
    text_ += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i) text_ += ',';
        text_ += json_quote(values[i]);
    }
    text_ += ']';
    return *this;
}

JsonObject& JsonObject::add_null(std::string_view k) {
    key(k);
    text_ += "null";
    return *this;
}

JsonObject& JsonObject::add_raw(std::string_view k, std::string_view json) {
    key(k);
    text_ += json;
    return *this;
}

}  // namespace reversi::web
