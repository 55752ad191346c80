#pragma once
// One TCP client of the server: its session and the three coroutines that serve it (see tcp_server.hpp),
// over a channel (channel.hpp: text protocol lines, or the web API's WebSocket messages).
// All members are used on the io_context's thread only; other threads reach it through asio::post.
#include <utility>  // before asio: Boost 1.74's awaitable.hpp uses std::exchange without including it

#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio.hpp>

#include "protocol/dispatch/session.hpp"
#include "protocol/transport/channel.hpp"
#include "protocol/transport/session_reaper.hpp"

namespace reversi::transport {

struct ConnectionLimits {
    std::size_t max_line;
    std::chrono::seconds idle_timeout;
    std::size_t max_pending_output;
    std::chrono::seconds max_search_time{0};  // a job running longer is stopped; 0: no limit
    // A client that leaves the output unread this long (one write, or a WebSocket's closing handshake,
    // without progress) is disconnected: it would otherwise hold its session and slot for good.
    std::chrono::seconds write_timeout{30};
};

class TcpConnection : public std::enable_shared_from_this<TcpConnection> {
public:
    using OnClosed = std::function<void(TcpConnection*)>;

    // `reaper`: ends the session when the connection goes (off the network thread); nullptr: the destructor does.
    TcpConnection(std::unique_ptr<Channel> channel, ConnectionLimits limits, OnClosed on_closed,
                  SessionReaper* reaper = nullptr);
    ~TcpConnection();

    // Creates the session and starts the coroutines; an error (memory budget) is returned for the caller
    // to report to the client.
    [[nodiscard]] Expected<bool> start(const dispatch::SessionConfig& config);
    // Graceful shutdown: stops the search (its bestmove is queued), then closes after the queue is sent.
    void shutdown_gracefully();
    // Closes the socket at once (the search is stopped and freed when the connection goes away).
    void close_now();
    // Whether refuse() was called (the on_closed callback may ask).
    [[nodiscard]] bool refused() const noexcept { return refused_; }
    [[nodiscard]] const std::string& peer() const noexcept { return peer_; }
    // How long the session has been idle: no input that counts as activity (Session::counts_as_activity)
    // and no running job; zero while a job runs or once the connection is closing.
    [[nodiscard]] std::chrono::steady_clock::duration idle_for(std::chrono::steady_clock::time_point now) const;
    // Closes an idle session to make room for a new client: the client is told why, the session and its
    // tables are freed at once, and the server no longer counts the connection.
    void reclaim();
    // Instead of start(): tells the client why it cannot have a session (an error message), then closes
    // (a WebSocket with code 1013, try again later).
    void refuse(const std::string& message);

private:
    asio::awaitable<void> read_loop();
    asio::awaitable<void> write_loop();
    asio::awaitable<void> watchdog();
    // An error line in the session's protocol (NBoard: status error), before a session exists a UCI one.
    [[nodiscard]] std::string error_line(const std::string& message) const;
    void deliver(std::string line);           // an output line, encoded by the channel
    void queue_message(std::string message);  // an encoded message
    void resume_session();
    // After the client's end of input: closes once its waiting commands and job are done.
    void finish_if_drained();
    void close_after_flush();
    void enforce_search_time(std::chrono::steady_clock::time_point now);
    // True (and the connection closed) when the write in flight has made no progress for write_timeout.
    bool enforce_write_timeout(std::chrono::steady_clock::time_point now);
    // The same for what the channel writes on its own (a WebSocket's pongs): true (and the connection
    // closed) when the socket's send queue has been non-empty without shrinking for write_timeout.
    bool enforce_socket_drain(std::chrono::steady_clock::time_point now);
    // Last resort for an exception that escaped a coroutine or a posted handler: log, tell the client,
    // close this connection; the server goes on.
    void fail(const char* where, std::exception_ptr error) noexcept;
    template <class F>
    void guarded(const char* where, F&& f) noexcept {
        try {
            f();
        } catch (...) {
            fail(where, std::current_exception());
        }
    }

    void handle_message(std::string message);

    std::unique_ptr<Channel> channel_;
    ConnectionLimits limits_;
    OnClosed on_closed_;
    SessionReaper* reaper_;
    asio::steady_timer write_signal_;
    asio::steady_timer idle_timer_;
    std::deque<std::string> queue_;
    std::size_t queued_bytes_ = 0;
    std::chrono::steady_clock::time_point last_input_;  // last input that counts as activity
    // When the write (or closing handshake) in flight began; max() when none is in flight.
    std::chrono::steady_clock::time_point write_since_ = std::chrono::steady_clock::time_point::max();
    std::size_t last_unsent_ = 0;  // the socket's send queue at the last watchdog tick (enforce_socket_drain)
    std::chrono::steady_clock::time_point draining_since_ = std::chrono::steady_clock::now();
    std::uint64_t stopped_job_ = 0;  // the job stopped for running too long
    std::string peer_;
    bool closing_ = false;  // no more input; close once the queue is sent
    bool closed_ = false;
    bool reported_closed_ = false;
    bool refused_ = false;
    bool input_ended_ = false;                    // the client half-closed: what it sent is answered, then the close
    std::unique_ptr<dispatch::Session> session_;  // last: ended first (by the reaper, or joined here)
};

}  // namespace reversi::transport
