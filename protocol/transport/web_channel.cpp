#include "protocol/transport/web_channel.hpp"

#include <sys/ioctl.h>

#include <algorithm>

#include <spdlog/spdlog.h>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "protocol/text/tokens.hpp"
#include "protocol/web/page_files.hpp"

namespace reversi::transport {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using asio::ip::tcp;
using WebSocket = websocket::stream<beast::tcp_stream>;

namespace {

// A message longer than this closes the WebSocket (close code 1009); one longer than --max-line but not
// this long is read to its end, dropped, and answered with an error.
constexpr std::size_t kMaxWebSocketMessage = std::size_t{16} << 20;
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::size_t kMaxRequestHeader = 8 * 1024;

class WebSocketChannel final : public Channel {
public:
    WebSocketChannel(WebSocket ws, const web::WebApiConfig& config, std::uint64_t seed)
        : ws_(std::move(ws)),
          api_(config, seed),
          max_message_(config.max_message),
          peer_(peer_name(beast::get_lowest_layer(ws_).socket())) {
        ws_.read_message_max(kMaxWebSocketMessage);
        ws_.text(true);
    }

    asio::awaitable<Read> read(std::string& message, error_code& ec) override {
        beast::flat_buffer buffer;
        bool too_long = false;
        do {
            co_await ws_.async_read_some(buffer, kReadChunk, asio::redirect_error(asio::use_awaitable, ec));
            if (ec) co_return Read::Closed;
            if (buffer.size() > max_message_) {
                too_long = true;
                buffer.consume(buffer.size());
            }
        } while (!ws_.is_message_done());
        if (too_long) co_return Read::TooLong;
        message = beast::buffers_to_string(buffer.data());
        co_return Read::Message;
    }

    asio::awaitable<void> write(const std::string& message, error_code& ec) override {
        co_await ws_.async_write(asio::buffer(message), asio::redirect_error(asio::use_awaitable, ec));
    }

    // A pending read (the reader coroutine) receives the client's answering close frame; the handshake
    // timeout bounds the wait for it.
    asio::awaitable<void> finish(bool refused) override {
        error_code ec;
        const websocket::close_reason reason(refused ? websocket::close_code::try_again_later
                                                     : websocket::close_code::normal);
        co_await ws_.async_close(reason, asio::redirect_error(asio::use_awaitable, ec));
    }

    void shutdown_receive() override {}  // finish() ends the read: the close frame

    void close() override {
        error_code ec;
        auto& socket = beast::get_lowest_layer(ws_).socket();
        socket.shutdown(tcp::socket::shutdown_both, ec);
        socket.close(ec);
    }

    std::string encode(std::string line) override { return web::WebApi::encode(line); }
    Decoded decode(std::string message) override {
        auto decoded = api_.decode(message);
        return {std::move(decoded.lines), std::move(decoded.replies)};
    }
    std::string greeting() override { return api_.hello(); }
    bool too_long_is_fatal() const override { return false; }
    std::string_view unit() const override { return "message"; }
    // Beast answers a ping with a pong inside the read, a write that write() does not see: a client that
    // pings and never reads fills the socket's send queue with them (TcpConnection::enforce_socket_drain).
    std::optional<std::size_t> unsent_bytes() override {
        int n = 0;
        auto& socket = beast::get_lowest_layer(ws_).socket();
        if (!socket.is_open() || ::ioctl(socket.native_handle(), TIOCOUTQ, &n) != 0 || n < 0) return std::nullopt;
        return static_cast<std::size_t>(n);
    }
    asio::any_io_executor executor() override { return ws_.get_executor(); }
    std::string peer() const override { return peer_; }

private:
    WebSocket ws_;
    web::WebApi api_;
    std::size_t max_message_;
    std::string peer_;
};

using Request = http::request<http::empty_body>;
using Response = http::response<http::string_body>;

Response plain_response(const Request& req, http::status status, std::string text) {
    Response res{status, req.version()};
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.keep_alive(req.keep_alive());
    res.body() = std::move(text) + "\n";
    res.prepare_payload();
    return res;
}

Response file_response(const Request& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
        auto res = plain_response(req, http::status::method_not_allowed, "only GET and HEAD");
        res.set(http::field::allow, "GET, HEAD");
        return res;
    }
    std::string_view target(req.target().data(), req.target().size());
    target = target.substr(0, target.find('?'));
    const web::PageFile* file = web::find_page_file(target);
    if (!file) return plain_response(req, http::status::not_found, "not found (the board is at /, its API at /ws)");
    Response res{http::status::ok, req.version()};
    res.set(http::field::content_type, std::string(file->content_type));
    res.set(http::field::cache_control, "no-cache");
    res.set("X-Content-Type-Options", "nosniff");
    res.set("Content-Security-Policy",
            "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; frame-ancestors 'none'");
    res.keep_alive(req.keep_alive());
    if (req.method() == http::verb::get) res.body() = std::string(file->body);
    res.prepare_payload();
    if (req.method() == http::verb::head) res.content_length(file->body.size());
    return res;
}

// The name part of a Host header ("name:port", "[v6]:port", "name"), lowercase.
std::string host_name(std::string_view host) {
    if (!host.empty() && host.front() == '[') {
        const auto close = host.find(']');
        return text::lowercase(host.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
    }
    return text::lowercase(host.substr(0, host.rfind(':')));
}

// A name a browser page may be served under: an IP address, localhost, or an allowed name.
bool allowed_host(const std::string& name, const std::vector<std::string>& allowed) {
    boost::system::error_code ec;
    asio::ip::make_address(name, ec);
    if (!ec) return true;
    if (name == "localhost" || (name.size() > 10 && name.ends_with(".localhost"))) return true;
    return std::find(allowed.begin(), allowed.end(), name) != allowed.end();
}

// A browser sends Origin; a page of another site must not drive the engine (cross-site WebSocket
// hijacking), nor a page of a foreign name that resolves here (DNS rebinding: its Origin and Host agree,
// so the name itself is checked). Programs send no Origin.
bool same_origin(const Request& req, const HttpOptions& options) {
    const auto origin = req.find(http::field::origin);
    if (origin == req.end()) return true;
    const auto host = req.find(http::field::host);
    if (host == req.end()) return false;
    const std::string_view o(origin->value().data(), origin->value().size());
    const std::string_view h(host->value().data(), host->value().size());
    if (o != "http://" + std::string(h) && o != "https://" + std::string(h)) return false;
    return allowed_host(host_name(h), options.allowed_hosts);
}

// The board's files are served under an IP address, localhost or an allowed name only, Origin or not: a
// browser's first request for a page (a navigation) sends no Origin, and a foreign name made to point
// here must not get the page either. A request without Host (HTTP/1.0 programs) is served.
bool page_host_allowed(const Request& req, const HttpOptions& options) {
    const auto host = req.find(http::field::host);
    if (host == req.end()) return true;
    return allowed_host(host_name(std::string_view(host->value().data(), host->value().size())), options.allowed_hosts);
}

}  // namespace

// The stream is gone (or moved) after serve_http: nothing may close it through the handle any more. (At
// namespace scope: a coroutine's frame holding a type without linkage draws -Wsubobject-linkage.)
struct HttpCloseRelease {
    HttpClientHandle& handle;
    ~HttpCloseRelease() { handle.close = nullptr; }
};

// The WebSocket handshake on an upgrade request, then the connection handed to `open` as a session.
asio::awaitable<void> accept_websocket(beast::tcp_stream stream, const Request& req, const HttpOptions& options,
                                       std::uint64_t seed, const WebSocketOpener& open) {
    WebSocket ws(std::move(stream));
    beast::get_lowest_layer(ws).expires_never();
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = options.request_timeout;
    timeouts.idle_timeout = websocket::stream_base::none();  // the connection's idle watchdog
    timeouts.keep_alive_pings = false;
    ws.set_option(timeouts);
    ws.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& r) { r.set(http::field::server, "reversi-engine"); }));
    error_code ec;
    co_await ws.async_accept(req, asio::redirect_error(asio::use_awaitable, ec));
    if (!ec) open(std::make_unique<WebSocketChannel>(std::move(ws), options.api, seed));
}

asio::awaitable<void> serve_http(tcp::socket socket, HttpOptions options, std::uint64_t seed, WebSocketOpener open,
                                 std::shared_ptr<HttpClientHandle> handle) {
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    handle->close = [&stream, &closed = handle->closed] {
        closed = true;
        error_code ignored;
        stream.socket().close(ignored);  // what waits on it ends with operation_aborted
    };
    const HttpCloseRelease release{*handle};
    for (;;) {
        http::request_parser<http::empty_body> parser;
        parser.header_limit(kMaxRequestHeader);
        error_code ec;
        stream.expires_after(options.request_timeout);
        handle->waiting_since = std::chrono::steady_clock::now();
        co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
        handle->waiting_since.reset();
        if (handle->closed) co_return;
        if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == asio::error::eof) co_return;
        Request req = ec ? Request{} : parser.release();
        Response res;
        if (ec) {
            res = plain_response(req, http::status::bad_request, "bad request: " + ec.message());
            res.keep_alive(false);
        } else if (!same_origin(req, options)) {
            res = plain_response(
                req, http::status::forbidden,
                "requests from pages of another origin, or of a host name not allowed (--allow-host), are refused");
        } else if (websocket::is_upgrade(req)) {
            if (req.target() != "/ws") {
                res = plain_response(req, http::status::not_found, "the WebSocket API is at /ws");
            } else {
                handle->close = nullptr;  // the socket moves to the WebSocket: a session's from now on
                co_await accept_websocket(std::move(stream), req, options, seed, open);
                co_return;
            }
        } else if (!page_host_allowed(req, options)) {
            res = plain_response(req, http::status::forbidden,
                                 "the board is served under an IP address, localhost, or a host name given with "
                                 "--http or --allow-host");
        } else {
            res = file_response(req);
        }
        co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
        if (handle->closed) co_return;
        if (ec || !res.keep_alive()) break;
    }
    error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

}  // namespace reversi::transport
