// The web API's pieces without a socket: the JSON parser and writer, the game a request describes (against
// the engine's rules), and the translation of requests into protocol lines and of output lines into
// messages (docs/web.md).
#include <doctest/doctest.h>

#include <random>

#include "engine/board/notation.hpp"
#include "engine/board/random_move.hpp"
#include "engine/board/variant.hpp"
#include "protocol/nboard/ggf.hpp"
#include "protocol/uci/uci_commands.hpp"
#include "protocol/web/json.hpp"
#include "protocol/web/web_api.hpp"
#include "protocol/web/web_game.hpp"

using namespace reversi;
using namespace reversi::web;

namespace {

JsonValue parsed(std::string_view text) {
    auto v = parse_json(text);
    REQUIRE_MESSAGE(v.has_value(), std::string(text));
    return *v;
}

const JsonValue& member(const JsonValue& v, std::string_view key) {
    const JsonValue* m = v.find(key);
    REQUIRE_MESSAGE(m != nullptr, std::string(key));
    return *m;
}

std::vector<std::string> strings(const JsonValue& array) {
    std::vector<std::string> out;
    for (const auto& e : array.array) out.push_back(e.string);
    return out;
}

WebApi api() { return WebApi(WebApiConfig{}, 1); }

// Whether `text` is well-formed UTF-8, decoded code point by code point (the reference the writer's
// check is compared with): no overlong form, no surrogate, nothing beyond U+10FFFF.
bool valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const int n = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
        if (n == 0 || text.size() - i < static_cast<std::size_t>(n)) return false;
        std::uint32_t code = n == 1 ? lead : lead & (0x7F >> n);
        for (int k = 1; k < n; ++k) {
            const auto c = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
            if ((c >> 6) != 2) return false;
            code = (code << 6) | (c & 0x3F);
        }
        constexpr std::uint32_t kMinOf[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < kMinOf[n] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
        i += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

TEST_CASE("json: values, escapes and nesting parse as RFC 8259 says") {
    const JsonValue v =
        parsed(R"( {"a": [1, -2.5e2, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} )");
    CHECK(v.kind == JsonValue::Kind::Object);
    const JsonValue& a = member(v, "a");
    REQUIRE(a.array.size() == 5);
    CHECK(a.array[0].number == 1);
    CHECK(a.array[1].number == -250);
    CHECK(a.array[2].boolean);
    CHECK(a.array[3].kind == JsonValue::Kind::Bool);
    CHECK(a.array[4].kind == JsonValue::Kind::Null);
    CHECK(member(v, "s").string == "x\"\\/\n\xc3\xa9\xf0\x9f\x98\x80");
    CHECK(member(v, "o").kind == JsonValue::Kind::Object);
    CHECK(parsed(R"({"k":1,"k":2})").find("k")->number == 2);
}

TEST_CASE("json: malformed text is an error that says where, never a crash") {
    for (const char* bad : {"", "{", "{\"a\"}", "{\"a\":}", "[1,]", "[1 2]", "01", "1.", "-", "\"abc", "\"\\x\"",
                            "\"\\ud800\"", "\"\\udc00\"", "tru", "{} x", "\"\x01\"", "1e999", "{\"a\":1,}"}) {
        auto v = parse_json(bad);
        CHECK_MESSAGE(!v.has_value(), bad);
        if (!v) CHECK(v.error().message.find("bad JSON at byte") == 0);
    }
    std::string deep(kMaxJsonDepth + 1, '[');
    deep += std::string(kMaxJsonDepth + 1, ']');
    CHECK(!parse_json(deep).has_value());
    std::string ok_depth(kMaxJsonDepth, '[');
    ok_depth += std::string(kMaxJsonDepth, ']');
    CHECK(parse_json(ok_depth).has_value());
    // A long flat array is refused past the value limit (parsed, each value takes about 100 bytes).
    const auto flat = [](int values) {
        std::string text = "[0";
        for (int i = 1; i < values; ++i) text += ",0";
        return text + "]";
    };
    CHECK(parse_json(flat(kMaxJsonValues - 1)).has_value());  // the array itself is a value too
    const auto too_many = parse_json(flat(kMaxJsonValues));
    REQUIRE(!too_many.has_value());
    CHECK(too_many.error().message.find("more than 65536 values") != std::string::npos);
}

TEST_CASE("json: the writer's output parses back to what was written") {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 200; ++i) {
        std::string s;
        for (int j = 0; j < 20; ++j) s += static_cast<char>(rng() % 128);
        const std::string text = JsonObject().add("s", s).add("n", -12).add("b", true).add("l", {"a", s}).str();
        const JsonValue v = parsed(text);
        CHECK(member(v, "s").string == s);
        CHECK(member(v, "n").number == -12);
        CHECK(member(v, "b").boolean);
        CHECK(strings(member(v, "l")) == std::vector<std::string>{"a", s});
    }
}

TEST_CASE("json: the writer's output is valid UTF-8 whatever bytes it is given") {
    // Well-formed sequences pass as they are; each byte of a malformed one becomes U+FFFD.
    CHECK(json_quote("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    CHECK(json_quote("a\xff\xfe") == "\"a\\ufffd\\ufffd\"");
    CHECK(json_quote("\xc0\xaf") == "\"\\ufffd\\ufffd\"");                        // overlong '/'
    CHECK(json_quote("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");             // a surrogate
    CHECK(json_quote("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // beyond U+10FFFF
    CHECK(json_quote("\xe2\x82") == "\"\\ufffd\\ufffd\"");                        // cut short
    CHECK(json_quote("\xe2\x82x") == "\"\\ufffd\\ufffdx\"");
    std::mt19937_64 rng(17);
    for (int i = 0; i < 5000; ++i) {
        std::string s;
        const int n = static_cast<int>(rng() % 24);
        for (int j = 0; j < n; ++j) s += static_cast<char>(rng() % 256);
        const std::string quoted = json_quote(s);
        CAPTURE(quoted);
        REQUIRE(valid_utf8(quoted));
        const JsonValue v = parsed("[" + quoted + "]");
        REQUIRE(v.array.size() == 1);
        // What was valid UTF-8 reads back unchanged.
        if (valid_utf8(s)) CHECK(v.array[0].string == s);
    }
}

TEST_CASE("web game: state after random games agrees with the engine's position") {
    std::mt19937_64 rng(11);
    for (int game = 0; game < 50; ++game) {
        Position pos = start_position();
        std::vector<std::string> moves;
        const int plies = static_cast<int>(rng() % 70);
        for (int p = 0; p < plies && !pos.is_over(); ++p) {
            const Move m = random_legal_move(pos, rng);
            if (m != kPass || rng() % 2) moves.push_back(move_to_string(m));  // forced passes left out half the time
            pos = pos.play_move(m);
        }
        const auto request = parsed(JsonObject().add("type", "position").add("moves", moves).str());
        auto g = game_from_request(request);
        REQUIRE_MESSAGE(g.has_value(), (g ? "" : g.error().message));
        CHECK(g->current == pos);
        const JsonValue state = parsed(state_message(*g));
        CHECK(member(state, "board").string == to_board_string(pos).substr(0, 64));
        CHECK(strings(member(state, "legal")) == square_names(pos.moves()));
        CHECK(member(state, "must_pass").boolean == pos.must_pass());
        CHECK(member(state, "game_over").boolean == pos.is_over());
        CHECK(member(state, "black").number == popcount(pos.black()));
        CHECK(member(state, "to_move").string == (pos.side == Color::Black ? "black" : "white"));
        // The position line, read by the text protocol's parser, is the same game.
        auto replay = uci::parse_position(position_line(*g));
        REQUIRE(replay.has_value());
        CHECK(replay->current == pos);
    }
}

TEST_CASE("web game: the last move's flipped discs, an illegal move and the result") {
    auto g = game_from_request(parsed(R"({"moves":["f5","d6","c3"]})"));
    REQUIRE(g.has_value());
    const JsonValue state = parsed(state_message(*g));
    CHECK(member(state, "last").string == "c3");
    CHECK(strings(member(state, "flipped")) == std::vector<std::string>{"d4"});
    auto bad = game_from_request(parsed(R"({"moves":["f5","f5"]})"));
    REQUIRE(!bad.has_value());
    CHECK(bad.error().message.find("move 2") == 0);
    // A finished game: white has just been wiped out but for one empty square.
    const std::string full = std::string(63, 'X') + "- O";
    auto over = game_from_request(parsed(JsonObject().add("board", full).str()));
    REQUIRE(over.has_value());
    const JsonValue end = parsed(state_message(*over));
    CHECK(member(end, "game_over").boolean);
    CHECK(member(end, "result").number == 64);
    CHECK(strings(member(end, "legal")).empty());
}

TEST_CASE("web export: the GGF reads back as the same game, with names and scores") {
    auto g = game_from_request(parsed(R"({"moves":["f5","d6","c3","d3","c4"]})"));
    REQUIRE(g.has_value());
    const JsonValue msg = parsed(export_message(*g, {"Ann]", "engine"}, {1.5, std::nullopt, -2.0}));
    CHECK(member(msg, "transcript").string == "f5d6c3d3c4");
    const std::string& text = member(msg, "ggf").string;
    CHECK(text.find("B[f5/1.50]") != std::string::npos);
    auto ggf = nboard::parse_ggf(text);
    REQUIRE_MESSAGE(ggf.has_value(), (ggf ? "" : ggf.error().message));
    CHECK(ggf->current == g->current);
    CHECK(ggf->tags["PB"] == "Ann]");
    CHECK(ggf->tags["PW"] == "engine");
}

TEST_CASE("web export: a long player name is cut at 64 bytes, never inside a UTF-8 character") {
    WebApi a = api();
    // 63 ASCII bytes, then a two-byte character across the 64-byte mark.
    const std::string long_name = std::string(63, 'a') + "\u00e9" + "zz";
    auto d = a.decode(R"({"type":"export","moves":["f5"],"black":")" + long_name + R"(","white":"w"})");
    REQUIRE(d.replies.size() == 1);
    auto ggf = nboard::parse_ggf(member(parsed(d.replies[0]), "ggf").string);
    REQUIRE(ggf.has_value());
    CHECK(ggf->tags["PB"] == std::string(63, 'a'));
    CHECK(ggf->tags["PW"] == "w");
}

TEST_CASE("web api: requests become protocol lines, bad ones errors") {
    WebApi a = api();
    auto go = a.decode(R"({"type":"go","depth":7,"multipv":3})");
    CHECK(go.lines == std::vector<std::string>{"setoption name MultiPV value 3", "go depth 7"});
    CHECK(a.decode(R"({"type":"go","movetime":250})").lines.back() == "go movetime 250");
    auto pos = a.decode(R"({"type":"position","moves":["f5"]})");
    REQUIRE(pos.lines.size() == 1);
    CHECK(pos.lines[0].rfind("position board ", 0) == 0);
    CHECK(pos.replies.size() == 1);
    CHECK(a.decode(R"({"type":"setoption","name":"Hash","value":32})").lines ==
          std::vector<std::string>{"setoption name Hash value 32"});
    CHECK(a.decode(R"({"type":"line","text":"d"})").lines == std::vector<std::string>{"d"});
    CHECK(a.decode(R"({"type":"line","text":42})").lines == std::vector<std::string>{"42"});
    for (const char* bad : {"[]",
                            "{}",
                            R"({"type":1})",
                            R"({"type":"fly"})",
                            R"({"type":"go"})",
                            R"({"type":"go","depth":0})",
                            R"({"type":"go","depth":2.5})",
                            R"({"type":"go","depth":"3"})",
                            R"({"type":"line","text":"go\nquit"})",
                            R"({"type":"setoption","name":"Hash"})",
                            R"({"type":"position","moves":["z9"]})",
                            R"({"type":"position","moves":"f5"})",
                            R"({"type":"position","moves":[],"transcript":"f5"})",
                            R"({"type":"opening","index":3})",
                            R"({"type":"line","text":1e300})",
                            R"({"type":"line","text":-1e19})",
                            R"({"type":"line","text":0.5})",
                            R"({"type":"line","text":"nboard 2"})",
                            R"({"type":"line","text":"  NBoard"})",
                            "not json"}) {
        auto d = a.decode(bad);
        CHECK_MESSAGE(d.lines.empty(), bad);
        REQUIRE(d.replies.size() == 1);
        CHECK(member(parsed(d.replies[0]), "type").string == "error");
    }
}

TEST_CASE("web api: output lines become messages") {
    const JsonValue info = parsed(WebApi::encode(
        "info depth 8 seldepth 8 selectivity 73 score cp -350 lowerbound nodes 7090 nps 7090000 time 1 hashfull 1 "
        "pv d3 c4 f4"));
    CHECK(member(info, "type").string == "info");
    CHECK(member(info, "depth").number == 8);
    CHECK(member(info, "score").number == -3.5);
    CHECK(member(info, "bound").string == "lower");
    CHECK(member(info, "multipv").number == 1);
    CHECK(strings(member(info, "pv")) == std::vector<std::string>{"d3", "c4", "f4"});
    const JsonValue best = parsed(WebApi::encode("bestmove d3 ponder c4"));
    CHECK(member(best, "move").string == "d3");
    CHECK(member(best, "ponder").string == "c4");
    CHECK(member(parsed(WebApi::encode("readyok")), "type").string == "readyok");
    CHECK(member(parsed(WebApi::encode("info string error: bad")), "message").string == "bad");
    CHECK(member(parsed(WebApi::encode("info string stats nodes 5")), "text").string == "info string stats nodes 5");
}

TEST_CASE("web api: openings come from the list, or are eight random legal moves") {
    WebApi random = api();
    const JsonValue r = parsed(random.decode(R"({"type":"opening"})").replies.at(0));
    CHECK(member(r, "source").string == "random");
    std::vector<std::string> moves = strings(member(r, "moves"));
    CHECK(moves.size() == 8);
    auto g = game_from_request(parsed(JsonObject().add("moves", moves).str()));
    CHECK(g.has_value());
    auto list = std::make_shared<std::vector<data::Opening>>();
    list->push_back(*data::parse_opening("f5d6c3d3c4f4", Variant::Standard));
    list->push_back(*data::parse_opening("c4e3f6e6f5", Variant::Standard));
    WebApi file(WebApiConfig{list, 1000, 10}, 2);
    const JsonValue f = parsed(file.decode(R"({"type":"opening","index":1})").replies.at(0));
    CHECK(member(f, "count").number == 2);
    CHECK(strings(member(f, "moves")) == std::vector<std::string>{"c4", "e3", "f6", "e6", "f5"});
}
