#pragma once
// How one connection of the server speaks on its socket: the framing (lines, or WebSocket messages) and
// the language (the text protocol as it is, or the web API's JSON, docs/web.md). TcpConnection drives a
// channel: it reads messages, turns them into the session's lines (decode), and sends every output line
// of the session as a message (encode). Used on the connection's thread only.
#include <utility>  // before asio (see tcp_connection.hpp)

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio.hpp>

namespace reversi::transport {

namespace asio = boost::asio;
using boost::system::error_code;

class Channel {
public:
    enum class Read { Message, TooLong, Ended, Closed };
    struct Decoded {
        std::vector<std::string> lines;    // for the session
        std::vector<std::string> replies;  // encoded messages for the client
    };

    virtual ~Channel() = default;
    // The next message into `message` (Message), one longer than the limit (TooLong: see
    // too_long_is_fatal), the client's end of input while it may still read (Ended: a TCP half-close,
    // `nc -N`; what it asked for is answered, then the connection closes), or the end of the stream
    // (Closed, with the error in `ec`).
    virtual asio::awaitable<Read> read(std::string& message, error_code& ec) = 0;
    // Writes one encoded message.
    virtual asio::awaitable<void> write(const std::string& message, error_code& ec) = 0;
    // After everything was sent: the polite end of the stream (a WebSocket close frame; `refused`: the
    // server is full). Errors are ignored.
    virtual asio::awaitable<void> finish(bool refused) = 0;
    // Wakes a pending read (the connection is closing), and closes the socket at once.
    virtual void shutdown_receive() = 0;
    virtual void close() = 0;

    // A line of the session's output as a message.
    [[nodiscard]] virtual std::string encode(std::string line) = 0;
    // A message from the client: the session's lines, and replies sent at once.
    [[nodiscard]] virtual Decoded decode(std::string message) = 0;
    // The first message of the connection (empty: none).
    [[nodiscard]] virtual std::string greeting() { return {}; }
    // A too long message closes a line connection (the stream cannot be resynchronised: the rest of the
    // line would be read as commands); a WebSocket message is dropped whole and the session goes on.
    [[nodiscard]] virtual bool too_long_is_fatal() const = 0;
    [[nodiscard]] virtual std::string_view unit() const = 0;  // "line" or "message", for error messages

    // The bytes in the socket's send queue (not yet sent, or not yet acknowledged), for a channel that
    // writes on its own besides write() (a WebSocket answers pings while it reads); nullopt: not watched.
    [[nodiscard]] virtual std::optional<std::size_t> unsent_bytes() { return std::nullopt; }
    [[nodiscard]] virtual asio::any_io_executor executor() = 0;
    [[nodiscard]] virtual std::string peer() const = 0;
};

// The text protocol over a plain TCP socket: one line per message, lines of at most `max_line` bytes.
[[nodiscard]] std::unique_ptr<Channel> make_line_channel(asio::ip::tcp::socket socket, std::size_t max_line);

// The peer's address as "address:port", or "unknown peer".
[[nodiscard]] std::string peer_name(const asio::ip::tcp::socket& socket);

}  // namespace reversi::transport
