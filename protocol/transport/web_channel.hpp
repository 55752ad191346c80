#pragma once
// The web front end's two halves on the server's socket (docs/web.md): HTTP for the page's files, and the
// WebSocket at /ws whose messages are the web API's JSON (protocol/web/web_api.hpp), one engine session
// per WebSocket. Boost.Beast, on the server's io_context.
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/transport/channel.hpp"
#include "protocol/web/web_api.hpp"

namespace reversi::transport {

struct HttpOptions {
    web::WebApiConfig api;                     // its max_message is the session's --max-line
    std::chrono::seconds request_timeout{30};  // to read one request (headers) and write its response
    // Host names (lowercase, no port) a browser may reach the server under, besides IP addresses and
    // localhost (--allow-host, and --http's own host when it is a name): a request from a page served
    // under another name is refused, which stops DNS rebinding (a foreign name made to point here).
    std::vector<std::string> allowed_hosts;
};

// Called with the channel of an accepted WebSocket; it starts a session or refuses the client.
using WebSocketOpener = std::function<void(std::unique_ptr<Channel>)>;

// How the server closes an HTTP client that has not upgraded, to make room for a new one: `close` is set
// by serve_http while the client is its own (until the upgrade or its end) and closes its socket, after
// which serve_http returns without answering. `waiting_since`: when the client's wait for its next
// request began, while it waits (nothing is being answered). Network thread only.
struct HttpClientHandle {
    std::function<void()> close;
    bool closed = false;
    std::optional<std::chrono::steady_clock::time_point> waiting_since;
};

// Serves one HTTP client: GET/HEAD of the page's files (keep-alive), and an upgrade at /ws, after which the
// socket belongs to the channel handed to `open`. A request from a page of another origin (an Origin
// header that is not this host), or from a page under a host name not allowed (HttpOptions), is refused
// with 403. Returns when the client is done or gone, or closed through `handle`.
asio::awaitable<void> serve_http(asio::ip::tcp::socket socket, HttpOptions options, std::uint64_t seed,
                                 WebSocketOpener open, std::shared_ptr<HttpClientHandle> handle);

}  // namespace reversi::transport
