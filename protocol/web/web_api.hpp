#pragma once
// The web API (docs/web.md): JSON messages over a WebSocket, translated to and from the text protocol of
// the session behind them. A request becomes the protocol lines it stands for (a `go` is a `setoption
// name MultiPV` and a `go` line), and the requests the session need not see (a game's `state`, an
// `opening`, an `export`) are answered here at once; every output line becomes one message. One WebApi
// per WebSocket, used on its connection's thread only.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/data/openings.hpp"
#include "protocol/web/json.hpp"

namespace reversi::web {

struct WebApiConfig {
    std::shared_ptr<const std::vector<data::Opening>> openings;  // --openings; null or empty: random ones
    std::size_t max_message = 65536;
    std::int64_t idle_timeout_s = 300;
};

class WebApi {
public:
    WebApi(WebApiConfig config, std::uint64_t seed);

    struct Decoded {
        std::vector<std::string> lines;    // for the session, in order
        std::vector<std::string> replies;  // messages for the client, sent at once
    };
    // One message from the client. Errors are replies; the lines are then empty.
    [[nodiscard]] Decoded decode(std::string_view message);
    // One output line of the session, as a message.
    [[nodiscard]] static std::string encode(std::string_view line);
    // The first message of a connection.
    [[nodiscard]] std::string hello() const;
    [[nodiscard]] static std::string error_message(std::string_view text);

private:
    [[nodiscard]] Decoded decode_request(const JsonValue& request);
    [[nodiscard]] Decoded go(const JsonValue& request) const;
    [[nodiscard]] Decoded opening(const JsonValue& request);

    WebApiConfig config_;
    std::mt19937_64 rng_;
};

// The `info` message of an `info depth ...` line (the fields it has), or empty for another line.
[[nodiscard]] std::string info_message(std::string_view line);

}  // namespace reversi::web
