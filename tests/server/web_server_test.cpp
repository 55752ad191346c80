// End-to-end tests of reversi-engine --http (docs/web.md) with a real WebSocket client (Boost.Beast): the
// handshake, a whole game through the JSON API, malformed and oversized messages, the session limit shared
// with --listen, idle clients, other origins, the page's files, and a graceful shutdown.
#include <doctest/doctest.h>

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <utility>  // before asio (Boost 1.74)
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "engine_process.hpp"
#include "protocol/web/json.hpp"

using namespace reversi::testing;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using asio::ip::tcp;
using reversi::web::JsonValue;

namespace {

// reversi-engine --http 127.0.0.1:0 (and --listen when asked): the ports from its "listening" lines.
class WebServer {
public:
    explicit WebServer(std::vector<std::string> extra = {}, bool with_listen = false)
        : process_([&] {
              std::vector<std::string> args{"--log-level", "warn"};
              if (with_listen) args.insert(args.end(), {"--listen", "127.0.0.1:0"});
              args.insert(args.end(), {"--http", "127.0.0.1:0"});
              args.insert(args.end(), extra.begin(), extra.end());
              return args;
          }()) {
        if (with_listen) line_port_ = read_port();
        http_port_ = read_port();
    }
    int http_port() const { return http_port_; }
    int line_port() const { return line_port_; }
    EngineProcess& process() { return process_; }

private:
    int read_port() {
        auto line = process_.io().read_line(20s);
        if (!line || line->rfind("listening ", 0) != 0) throw std::runtime_error("server did not start");
        return std::stoi(line->substr(line->rfind(':') + 1));
    }
    EngineProcess process_;
    int http_port_ = 0;
    int line_port_ = 0;
};

void set_receive_timeout(tcp::socket& socket, std::chrono::milliseconds timeout) {
    timeval tv{static_cast<time_t>(timeout.count() / 1000), static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

// A blocking WebSocket client whose reads give up after a timeout (SO_RCVTIMEO) instead of hanging.
class WsClient {
public:
    // Connects and shakes hands (Host 127.0.0.1:PORT unless `host` is given); `error()` says why when it
    // returns false.
    bool connect(int port, const std::string& origin = "", const std::string& host = "") {
        beast::error_code ec;
        ws_.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)),
                                 ec);
        if (ec) return fail(ec);
        set_receive_timeout(ws_.next_layer(), 20s);
        if (!origin.empty()) {
            ws_.set_option(websocket::stream_base::decorator(
                [origin](websocket::request_type& r) { r.set(http::field::origin, origin); }));
        }
        ws_.handshake(host.empty() ? "127.0.0.1:" + std::to_string(port) : host, "/ws", ec);
        if (ec) return fail(ec);
        ws_.text(true);
        return true;
    }
    void send(const std::string& text) {
        beast::error_code ec;
        ws_.write(asio::buffer(text), ec);
        REQUIRE_MESSAGE(!ec, ec.message());
    }
    // A binary message (no UTF-8 check on either side).
    void send_binary(const std::string& bytes) {
        beast::error_code ec;
        ws_.binary(true);
        ws_.write(asio::buffer(bytes), ec);
        ws_.text(true);
        REQUIRE_MESSAGE(!ec, ec.message());
    }
    // The next message as JSON, or nullopt when the connection ended (or the read timed out).
    std::optional<JsonValue> read() {
        beast::flat_buffer buffer;
        beast::error_code ec;
        ws_.read(buffer, ec);
        if (ec) {
            fail(ec);
            return std::nullopt;
        }
        auto v = reversi::web::parse_json(beast::buffers_to_string(buffer.data()));
        REQUIRE_MESSAGE(v.has_value(), beast::buffers_to_string(buffer.data()));
        return *v;
    }
    // Reads until a message of `type`; nullopt when the connection ends first.
    std::optional<JsonValue> read_until(const std::string& type) {
        for (;;) {
            auto m = read();
            if (!m) return std::nullopt;
            if (type_of(*m) == type) return m;
        }
    }
    static std::string type_of(const JsonValue& m) {
        const JsonValue* t = m.find("type");
        return t ? t->string : "";
    }
    [[nodiscard]] const std::string& error() const { return error_; }
    [[nodiscard]] int close_code() const { return static_cast<int>(ws_.reason().code); }

private:
    bool fail(const beast::error_code& ec) {
        error_ = ec.message();
        return false;
    }
    asio::io_context io_;
    websocket::stream<tcp::socket> ws_{io_};
    std::string error_;
};

// A line (UCI) client of the server's --listen port.
LineChannel connect_line(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    return LineChannel(fd, fd);
}

std::string field(const JsonValue& m, std::string_view key) {
    const JsonValue* f = m.find(key);
    return f && f->kind == JsonValue::Kind::String ? f->string : "";
}

double number(const JsonValue& m, std::string_view key) {
    const JsonValue* f = m.find(key);
    return f && f->kind == JsonValue::Kind::Number ? f->number : -1e9;
}

std::string moves_json(const std::vector<std::string>& moves) {
    return reversi::web::JsonObject().add("type", "position").add("moves", moves).str();
}

// One HTTP GET on a new connection: status and body.
// GET `target` with the Host header `host` (127.0.0.1 when empty): the status and the body.
std::pair<int, std::string> http_get(int port, const std::string& target, const std::string& host = "") {
    asio::io_context io;
    tcp::socket socket(io);
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
    set_receive_timeout(socket, 20s);
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, host.empty() ? "127.0.0.1" : host);
    http::write(socket, req);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    beast::error_code ec;
    http::read(socket, buffer, res, ec);
    if (ec) return {0, ec.message()};
    return {static_cast<int>(res.result_int()), res.body()};
}

// A keep-alive HTTP client that sends GET requests on one connection.
class KeepAliveClient {
public:
    explicit KeepAliveClient(int port) {
        socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
        set_receive_timeout(socket_, 20s);
    }
    // The status of GET `target` on this connection; 0 when the connection is gone.
    int get(const std::string& target) {
        http::request<http::empty_body> req{http::verb::get, target, 11};
        req.set(http::field::host, "127.0.0.1");
        beast::error_code ec;
        http::write(socket_, req, ec);
        if (ec) return 0;
        http::response<http::string_body> res;
        http::read(socket_, buffer_, res, ec);
        return ec ? 0 : static_cast<int>(res.result_int());
    }

private:
    asio::io_context io_;
    tcp::socket socket_{io_};
    beast::flat_buffer buffer_;
};

}  // namespace

TEST_CASE("web: the page's files are served over HTTP, other paths are 404") {
    WebServer server;
    const auto [status, body] = http_get(server.http_port(), "/");
    CHECK(status == 200);
    CHECK(body.find("<html") != std::string::npos);
    CHECK(body.find("board.js") != std::string::npos);
    CHECK(http_get(server.http_port(), "/board.js").first == 200);
    CHECK(http_get(server.http_port(), "/board.css").first == 200);
    CHECK(http_get(server.http_port(), "/../etc/passwd").first == 404);
    CHECK(http_get(server.http_port(), "/ws").first == 404);  // not an upgrade
}

TEST_CASE("web: a whole game through the WebSocket API, the engine playing both sides") {
    WebServer server;
    WsClient client;
    REQUIRE_MESSAGE(client.connect(server.http_port()), client.error());
    auto hello = client.read();
    REQUIRE(hello);
    CHECK(field(*hello, "type") == "hello");
    CHECK(field(*hello, "protocol") == "reversi-web 1");
    std::vector<std::string> moves;
    int searches = 0;
    for (int turn = 0; turn < 80; ++turn) {
        client.send(moves_json(moves));
        auto state = client.read_until("state");
        REQUIRE(state);
        CHECK(number(*state, "black") + number(*state, "white") + number(*state, "empties") == 64);
        if (state->find("game_over")->boolean) {
            CHECK(number(*state, "result") >= -64);
            CHECK(number(*state, "result") <= 64);
            break;
        }
        if (state->find("must_pass")->boolean) {
            moves.emplace_back("pass");
            continue;
        }
        client.send(R"({"type":"go","depth":2})");
        auto info = client.read_until("info");
        REQUIRE(info);
        CHECK(number(*info, "depth") >= 1);
        auto best = client.read_until("bestmove");
        REQUIRE(best);
        const std::string move = field(*best, "move");
        std::vector<std::string> legal;
        for (const auto& m : state->find("legal")->array) legal.push_back(m.string);
        CHECK_MESSAGE(std::find(legal.begin(), legal.end(), move) != legal.end(), move);
        moves.push_back(move);
        ++searches;
    }
    CHECK(searches >= 30);
    client.send(R"({"type":"export","moves":)" + reversi::web::JsonObject().add("m", moves).str().substr(5));
    auto exported = client.read_until("export");
    REQUIRE(exported);
    CHECK(field(*exported, "ggf").rfind("(;GM[Othello]", 0) == 0);
    CHECK(field(*exported, "ggf").find("RE[") != std::string::npos);
}

TEST_CASE("web: malformed and oversized messages get an error and the session goes on") {
    WebServer server({"--max-line", "1024"});
    WsClient client;
    REQUIRE_MESSAGE(client.connect(server.http_port()), client.error());
    REQUIRE(client.read_until("hello"));
    for (const std::string& bad :
         std::vector<std::string>{"not json", "[1,2]", R"({"type":"warp"})", R"({"type":"go","depth":-3})",
                                  R"({"type":"position","moves":["e5"]})", std::string(5000, '['),
                                  R"({"type":"line","text":"frobnicate"})"}) {
        client.send(bad);
        auto error = client.read_until("error");
        REQUIRE_MESSAGE(error, bad.substr(0, 40));
        CHECK(!field(*error, "message").empty());
    }
    client.send(R"({"type":"line","text":")" + std::string(3000, 'x') + "\"}");
    auto too_long = client.read_until("error");
    REQUIRE(too_long);
    CHECK(field(*too_long, "message").find("message longer than 1024 bytes") == 0);
    client.send(R"({"type":"isready"})");
    CHECK(client.read_until("readyok"));
    client.send(R"({"type":"position","moves":["f5"]})");
    auto state = client.read_until("state");
    REQUIRE(state);
    CHECK(field(*state, "to_move") == "white");
}

TEST_CASE("web: WebSocket and line clients share the session limit, and a refused client is told why") {
    WebServer server({"--max-sessions", "1"}, true);
    LineChannel line = connect_line(server.line_port());
    line.send("isready");
    REQUIRE(!line.read_until("readyok").empty());
    WsClient refused;
    REQUIRE_MESSAGE(refused.connect(server.http_port()), refused.error());
    auto error = refused.read_until("error");
    REQUIRE(error);
    CHECK(field(*error, "message").find("server is full") != std::string::npos);
    CHECK(!refused.read());
    CHECK(refused.close_code() == 1013);
    line.send("quit");
    CHECK(line.wait_closed());
    // The slot is free again.
    bool served = false;
    for (int attempt = 0; attempt < 50 && !served; ++attempt) {
        WsClient next;
        REQUIRE_MESSAGE(next.connect(server.http_port()), next.error());
        auto first = next.read();
        served = first && field(*first, "type") == "hello";
        if (!served) std::this_thread::sleep_for(100ms);
    }
    CHECK(served);
}

TEST_CASE(
    "web: refused WebSockets that never close are capped, and beyond the cap a refused client is closed at once") {
    // One slot, taken by a line client: every WebSocket is refused. A refused client that does not answer
    // the close frame holds its socket for the request timeout (30 s); at most 2 per slot do so at once.
    WebServer server({"--max-sessions", "1"}, true);
    LineChannel line = connect_line(server.line_port());
    line.send("isready");
    REQUIRE(!line.read_until("readyok").empty());
    std::vector<std::unique_ptr<WsClient>> silent;  // read the refusal, never the close frame
    for (int i = 0; i < 2; ++i) {
        auto c = std::make_unique<WsClient>();
        REQUIRE_MESSAGE(c->connect(server.http_port()), c->error());
        auto error = c->read_until("error");
        REQUIRE(error);
        CHECK(field(*error, "message").find("server is full") != std::string::npos);
        silent.push_back(std::move(c));
    }
    WsClient third;
    REQUIRE_MESSAGE(third.connect(server.http_port()), third.error());
    CHECK(!third.read());  // closed without the message (and without a close frame)
    CHECK(third.close_code() != 1013);
    line.send("isready");  // the server serves on
    CHECK(!line.read_until("readyok").empty());
}

TEST_CASE("web: an idle WebSocket is closed with an error, and a page of another origin is refused") {
    WebServer server({"--idle-timeout", "1"});
    WsClient idle;
    REQUIRE_MESSAGE(idle.connect(server.http_port()), idle.error());
    REQUIRE(idle.read_until("hello"));
    auto error = idle.read_until("error");
    REQUIRE(error);
    CHECK(field(*error, "message").find("idle for 1 s") == 0);
    CHECK(!idle.read());
    CHECK(idle.close_code() == 1000);
    WsClient foreign;
    CHECK(!foreign.connect(server.http_port(), "http://evil.example"));
    WsClient same;
    CHECK(same.connect(server.http_port(), "http://127.0.0.1:" + std::to_string(server.http_port())));
}

TEST_CASE("web: a page under a foreign host name is refused (DNS rebinding), unless --allow-host names it") {
    WebServer server({"--allow-host", "Board.Example"});
    const std::string port = std::to_string(server.http_port());
    // A foreign name made to point here: its Origin and Host agree, the name is not allowed.
    WsClient rebound;
    CHECK(!rebound.connect(server.http_port(), "http://evil.example:" + port, "evil.example:" + port));
    for (const std::string& host :
         {"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "board.example:" + port}) {
        WsClient page;
        CAPTURE(host);
        CHECK_MESSAGE(page.connect(server.http_port(), "http://" + host, host), page.error());
    }
    WsClient program;  // no Origin: not a browser page
    CHECK(program.connect(server.http_port(), "", "evil.example:" + port));
    // The page itself: a navigation sends no Origin, so its host name is what is checked.
    CHECK(http_get(server.http_port(), "/", "evil.example:" + port).first == 403);
    CHECK(http_get(server.http_port(), "/board.js", "evil.example:" + port).first == 403);
    for (const std::string& host :
         {"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "board.example:" + port}) {
        CAPTURE(host);
        CHECK(http_get(server.http_port(), "/", host).first == 200);
    }
}

TEST_CASE("web: replies are valid UTF-8 whatever bytes a message carried, and the session stays UCI-style") {
    WebServer server;
    WsClient c;
    REQUIRE_MESSAGE(c.connect(server.http_port()), c.error());
    REQUIRE(c.read_until("hello"));
    // A binary message is not checked for UTF-8: its bytes reach the session, whose error repeats the
    // name. The client's read checks every text frame's UTF-8 and fails on a malformed one.
    c.send_binary("{\"type\":\"line\",\"text\":\"go depth 1 algo \xff\xfe\"}");
    auto error = c.read_until("error");
    REQUIRE_MESSAGE(error, c.error());
    CHECK(field(*error, "message").find("unknown algorithm") != std::string::npos);
    c.send_binary("{\"type\":\"export\",\"black\":\"\xff\xfe\xfd\",\"moves\":[]}");
    REQUIRE_MESSAGE(c.read(), c.error());
    // nboard would switch the session to another protocol than the messages' own.
    c.send(R"({"type":"line","text":"nboard 2"})");
    error = c.read_until("error");
    REQUIRE(error);
    CHECK(field(*error, "message").find("nboard is for stdin and --listen") != std::string::npos);
    c.send(R"({"type":"isready"})");
    CHECK(c.read_until("readyok"));
}

TEST_CASE("web: a client that pings and never reads is closed after the write timeout (its pongs unsent)") {
    // Beast answers each ping with a pong inside the read: a client that floods pings with a tiny receive
    // buffer and never reads fills the server's send queue with pongs, which no write of the server's
    // own would see stall (found by a probe: the slot was held until the idle timeout).
    WebServer server({"--write-timeout", "2", "--idle-timeout", "60"});
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd >= 0);
    const int small = 4096;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    const timeval send_timeout{0, 200000};  // a full send queue must not block the test
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof send_timeout);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(server.http_port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    const std::string port = std::to_string(server.http_port());
    const std::string handshake = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + port +
                                  "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    REQUIRE(::send(fd, handshake.data(), handshake.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(handshake.size()));
    std::string response;
    char c = 0;
    while (response.find("\r\n\r\n") == std::string::npos && ::recv(fd, &c, 1, 0) == 1) response += c;
    REQUIRE(response.rfind("HTTP/1.1 101", 0) == 0);
    // Masked pings with 125-byte payloads (the key 0: the payload is sent as it is).
    std::string ping = "\x89\xfd";
    ping += std::string(4, '\0') + std::string(125, 'p');
    std::string burst;
    for (int i = 0; i < 256; ++i) burst += ping;
    const auto start = std::chrono::steady_clock::now();
    bool reset = false;
    while (!reset && std::chrono::steady_clock::now() - start < 15s) {
        (void)::send(fd, burst.data(), burst.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        pollfd p{fd, 0, 0};  // no read: only whether the server has reset the connection
        reset = ::poll(&p, 1, 100) == 1 && (p.revents & (POLLERR | POLLHUP));
    }
    const auto took = std::chrono::steady_clock::now() - start;
    ::close(fd);
    CHECK(reset);
    CHECK(took < 10s);  // 2 s without the queue shrinking, the watchdog's 1 s tick, and filling the buffers
    WsClient next;      // the server serves on
    CHECK(next.connect(server.http_port()));
}

TEST_CASE("web: a server that cannot listen on one of its addresses announces none and exits 1") {
    asio::io_context io;
    tcp::acceptor taken(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));  // listening already
    const std::string port = std::to_string(taken.local_endpoint().port());
    EngineProcess process({"--log-level", "off", "--listen", "127.0.0.1:0", "--http", "127.0.0.1:" + port});
    CHECK(process.wait_exit(20s) == 1);
    CHECK(!process.io().read_line(2s));  // no "listening" line: a supervisor must not think it is up
}

TEST_CASE("web: SIGTERM stops a running search, sends its bestmove and exits 0 at once") {
    WebServer server;
    // A browser's idle keep-alive connection (no request yet) must not hold the shutdown.
    asio::io_context io;
    tcp::socket idle_http(io);
    idle_http.connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.http_port())));
    WsClient client;
    REQUIRE_MESSAGE(client.connect(server.http_port()), client.error());
    REQUIRE(client.read_until("hello"));
    client.send(R"({"type":"line","text":"go infinite"})");
    REQUIRE(client.read_until("info"));
    server.process().signal(SIGTERM);
    CHECK(client.read_until("bestmove"));
    CHECK(server.process().wait_exit(10s) == 0);  // the HTTP request timeout is 30 s
}

TEST_CASE("web: keep-alive connections that never upgrade cannot lock new clients out") {
    // One slot: at most 2 HTTP clients without a WebSocket. Two keep-alive connections hold them; a new
    // client closes the one idle the longest (not the one open the longest) instead of being refused (it
    // used to be closed at accept).
    WebServer server({"--max-sessions", "1"});
    KeepAliveClient first(server.http_port());
    REQUIRE(first.get("/") == 200);
    KeepAliveClient second(server.http_port());
    REQUIRE(second.get("/") == 200);
    REQUIRE(first.get("/") == 200);  // the first is the more recently active now
    WsClient player;
    REQUIRE_MESSAGE(player.connect(server.http_port()), player.error());
    auto hello = player.read();
    REQUIRE(hello);
    CHECK(field(*hello, "type") == "hello");
    CHECK(second.get("/") == 0);  // closed for the new client
    CHECK(first.get("/") == 200);
}
