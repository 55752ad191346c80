#include "protocol/web/web_api.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/board/notation.hpp"
#include "engine/board/random_move.hpp"
#include "engine/board/variant.hpp"
#include "protocol/text/tokens.hpp"
#include "protocol/web/web_game.hpp"

namespace reversi::web {

namespace {

constexpr int kRandomOpeningPlies = 8;

// An integer field in [min, max]; absent: nullopt; present but bad: an error.
Expected<std::optional<std::int64_t>> integer_field(const JsonValue& request, std::string_view name, std::int64_t min,
                                                    std::int64_t max) {
    const JsonValue* field = request.find(name);
    if (!field || field->kind == JsonValue::Kind::Null) return std::optional<std::int64_t>{};
    if (field->kind != JsonValue::Kind::Number || field->number != std::floor(field->number) ||
        field->number < static_cast<double>(min) || field->number > static_cast<double>(max))
        return make_error(std::string(name) + " must be an integer from " + std::to_string(min) + " to " +
                          std::to_string(max));
    return std::optional<std::int64_t>{static_cast<std::int64_t>(field->number)};
}

// A string field that becomes part of a protocol line: one line, printable.
Expected<std::string> text_field(const JsonValue& request, std::string_view name) {
    const JsonValue* field = request.find(name);
    if (!field) return make_error(std::string(name) + " is missing");
    std::string text;
    if (field->kind == JsonValue::Kind::String) {
        text = field->string;
    } else if (field->kind == JsonValue::Kind::Number) {
        // Checked before the cast: a double outside the int64 range (1e300, infinity, NaN) has no value there.
        constexpr double kExact = 9007199254740992.0;  // 2^53: every integer up to it is a double
        if (field->number != std::floor(field->number) || std::abs(field->number) > kExact)
            return make_error(std::string(name) + " must be an integer of at most 16 digits, or a string");
        text = std::to_string(static_cast<std::int64_t>(field->number));
    } else {
        return make_error(std::string(name) + " must be a string");
    }
    for (const char c : text) {
        if (c == '\n' || c == '\r' || c == '\0') return make_error(std::string(name) + " must be one line");
    }
    return text;
}

WebApi::Decoded reply(std::string message) { return {{}, {std::move(message)}}; }
WebApi::Decoded error_reply(std::string_view text) { return reply(WebApi::error_message(text)); }
WebApi::Decoded lines(std::vector<std::string> l) { return {std::move(l), {}}; }

std::string name_field(const JsonValue& request, std::string_view name, std::string fallback) {
    const JsonValue* field = request.find(name);
    if (!field || field->kind != JsonValue::Kind::String || field->string.empty()) return fallback;
    // At most 64 bytes, cut before a UTF-8 continuation byte so that no character is split.
    std::size_t end = std::min<std::size_t>(field->string.size(), 64);
    while (end > 0 && end < field->string.size() && (static_cast<unsigned char>(field->string[end]) & 0xC0) == 0x80)
        --end;
    return field->string.substr(0, end);
}

Expected<std::vector<std::optional<double>>> scores_field(const JsonValue& request) {
    std::vector<std::optional<double>> scores;
    const JsonValue* field = request.find("scores");
    if (!field) return scores;
    if (field->kind != JsonValue::Kind::Array) return make_error("scores must be an array");
    for (const JsonValue& v : field->array) {
        if (v.kind == JsonValue::Kind::Number && std::abs(v.number) <= 64) {
            scores.emplace_back(v.number);
        } else if (v.kind == JsonValue::Kind::Null) {
            scores.emplace_back();
        } else {
            return make_error("scores must hold numbers from -64 to 64 or null");
        }
    }
    return scores;
}

}  // namespace

WebApi::WebApi(WebApiConfig config, std::uint64_t seed) : config_(std::move(config)), rng_(seed) {}

std::string WebApi::error_message(std::string_view text) {
    return JsonObject().add("type", "error").add("message", text).str();
}

std::string WebApi::hello() const {
    return JsonObject()
        .add("type", "hello")
        .add("protocol", "reversi-web 1")
        .add("engine", "reversi " REVERSI_VERSION)
        .add("max_message", static_cast<std::int64_t>(config_.max_message))
        .add("idle_timeout", config_.idle_timeout_s)
        .str();
}

WebApi::Decoded WebApi::decode(std::string_view message) {
    auto request = parse_json(message);
    if (!request) return error_reply(request.error().message);
    if (request->kind != JsonValue::Kind::Object) return error_reply("a message must be a JSON object");
    return decode_request(*request);
}

WebApi::Decoded WebApi::decode_request(const JsonValue& request) {
    const JsonValue* type = request.find("type");
    if (!type || type->kind != JsonValue::Kind::String) return error_reply("a message needs a \"type\" string");
    const std::string& t = type->string;
    if (t == "position" || t == "export") {
        auto game = game_from_request(request);
        if (!game) return error_reply(t + ": " + game.error().message);
        if (t == "position") return {{position_line(*game)}, {state_message(*game)}};
        auto scores = scores_field(request);
        if (!scores) return error_reply("export: " + scores.error().message);
        const ExportNames names{name_field(request, "black", "black"), name_field(request, "white", "white")};
        return reply(export_message(*game, names, *scores));
    }
    if (t == "go") return go(request);
    if (t == "opening") return opening(request);
    if (t == "stop") return lines({"stop"});
    if (t == "newgame") return lines({"ucinewgame"});
    if (t == "isready") return lines({"isready"});
    if (t == "setoption") {
        auto name = text_field(request, "name");
        if (!name) return error_reply("setoption: " + name.error().message);
        auto value = text_field(request, "value");
        if (!value) return error_reply("setoption: " + value.error().message);
        return lines({"setoption name " + *name + " value " + *value});
    }
    if (t == "line") {
        auto text = text_field(request, "text");
        if (!text) return error_reply("line: " + text.error().message);
        // The messages above are the UCI-style protocol's commands: a session switched to NBoard would
        // answer them with errors while the page showed their effect.
        if (text::iequals(text::first_token(*text), "nboard")) {
            return error_reply("line: the web API speaks the UCI-style protocol; nboard is for stdin and --listen");
        }
        return lines({*text});
    }
    return error_reply("unknown message type " + text::quote(t) + " (docs/web.md lists them)");
}

WebApi::Decoded WebApi::go(const JsonValue& request) const {
    auto depth = integer_field(request, "depth", 1, 60);
    auto movetime = integer_field(request, "movetime", 1, 86'400'000);
    auto nodes = integer_field(request, "nodes", 1, std::int64_t{1} << 50);
    auto multipv = integer_field(request, "multipv", 1, 64);
    for (const auto* field : {&depth, &movetime, &nodes, &multipv}) {
        if (!*field) return error_reply("go: " + field->error().message);
    }
    std::string go = "go";
    if (*depth) go += " depth " + std::to_string(**depth);
    if (*movetime) go += " movetime " + std::to_string(**movetime);
    if (*nodes) go += " nodes " + std::to_string(**nodes);
    if (go == "go") return error_reply("go: give depth, movetime or nodes");
    return lines({"setoption name MultiPV value " + std::to_string(multipv->value_or(1)), go});
}

WebApi::Decoded WebApi::opening(const JsonValue& request) {
    const std::size_t count = config_.openings ? config_.openings->size() : 0;
    if (count == 0 && request.find("index"))
        return error_reply(
            "opening: the server has no list of openings (--openings); leave out index for a random one");
    auto index = integer_field(request, "index", 0, count == 0 ? 0 : static_cast<std::int64_t>(count) - 1);
    if (!index) return error_reply("opening: " + index.error().message);
    std::vector<std::string> moves;
    if (count == 0) {
        Position pos = start_position();
        for (int ply = 0; ply < kRandomOpeningPlies; ++ply) {
            const Move m = random_legal_move(pos, rng_);
            moves.push_back(move_to_string(m));
            pos = pos.play_move(m);
        }
        return reply(JsonObject()
                         .add("type", "opening")
                         .add("index", 0)
                         .add("count", 0)
                         .add("source", "random")
                         .add("moves", moves)
                         .str());
    }
    const std::size_t i =
        *index ? static_cast<std::size_t>(**index) : std::uniform_int_distribution<std::size_t>(0, count - 1)(rng_);
    const data::Opening& o = (*config_.openings)[i];
    JsonObject msg;
    msg.add("type", "opening")
        .add("index", static_cast<std::int64_t>(i))
        .add("count", static_cast<std::int64_t>(count))
        .add("source", "file");
    if (o.start != start_position()) msg.add("board", to_board_string(o.start));
    for (Move m : o.moves) moves.push_back(move_to_string(m));
    return reply(msg.add("moves", moves).str());
}

}  // namespace reversi::web
