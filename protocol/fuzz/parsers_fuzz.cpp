// libFuzzer target for the protocol's text parsers: the input is split into lines (with the stdio line
// splitter) and every line goes through the go, setoption/option, position and GGF parsers, and the web
// API's translation of an output line; the whole input is one web API message. Crashes, sanitizer reports
// and broken invariants (a successful parse must describe a legal, consistent game; every message the web
// API writes is JSON) are findings. Build and run: see docs/protocol.md (preset "fuzz").
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/board/notation.hpp"
#include "protocol/nboard/ggf.hpp"
#include "protocol/session/engine_options.hpp"
#include "protocol/text/tokens.hpp"
#include "protocol/transport/line_splitter.hpp"
#include "protocol/uci/uci_commands.hpp"
#include "protocol/web/json.hpp"
#include "protocol/web/web_api.hpp"

using namespace reversi;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

void fuzz_line(std::string_view line) {
    auto tokens = text::split_tokens(line);
    auto go = uci::parse_go(tokens);
    if (go && go->depth) check(*go->depth >= 1 && *go->depth <= 60);
    if (!tokens.empty()) {
        std::vector<std::string_view> rest(tokens.begin() + 1, tokens.end());
        auto go2 = uci::parse_go(rest);
        (void)go2;
        auto assignment = uci::parse_setoption(rest);
        if (assignment) {
            auto o = session::assign_option(session::EngineOptions{}, assignment->name, assignment->value);
            if (o) check(o->hash_mib >= 1 && o->search.threads >= 1 && o->search.multipv >= 1);
        }
    }
    auto pos = uci::parse_position(line);
    if (pos) {
        auto replay = play_moves(pos->start, pos->moves);
        check(replay.has_value() && *replay == pos->current);
    }
    auto game = nboard::parse_ggf(line);
    if (game) {
        auto replay = play_moves(game->start, game->moves);
        check(replay.has_value() && *replay == game->current);
    }
    (void)text::quote(line);
    check(web::parse_json(web::WebApi::encode(line)).has_value());
}

// The whole input as one web API message: every reply is JSON, and no line for the session has a newline.
void fuzz_message(std::string_view message) {
    web::WebApi api(web::WebApiConfig{}, 1);
    const auto decoded = api.decode(message);
    for (const auto& reply : decoded.replies) check(web::parse_json(reply).has_value());
    for (const auto& line : decoded.lines) check(line.find('\n') == std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    transport::LineSplitter splitter(4096);
    const auto on_line = [](std::string_view l) { fuzz_line(l); };
    splitter.feed(input, on_line, [] {});
    splitter.finish(on_line);
    fuzz_message(input);
    return 0;
}
