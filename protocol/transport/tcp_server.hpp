#pragma once
// The TCP server (Boost.Asio, C++20 coroutines, one io_context on the main thread): every connection is
// an independent protocol session. Per connection a reader coroutine (capped line buffer), a writer
// coroutine draining a queue and an idle watchdog; search threads hand their lines to the connection with
// asio::post and never touch the socket. Limits: line length (error line, then the connection is closed),
// idle timeout (no input and no running job), concurrent sessions (a new client is told the server is full),
// a memory budget for the sessions' hash tables, a cap on unsent output (a client that does not read is
// dropped). A disconnect stops and frees the session's search. SIGINT/SIGTERM: searches are stopped, their
// bestmoves sent, the sessions closed, and run_tcp_server returns 0. docs/security.md lists every limit.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/expected.hpp"
#include "engine/data/openings.hpp"
#include "protocol/session/engine_context.hpp"

namespace reversi::transport {

struct TcpOptions {
    bool serve_lines = true;  // the text protocol on host:port (--listen)
    std::string host = "127.0.0.1";
    std::uint16_t port = 7878;  // 0: any free port (printed on stdout as "listening HOST:PORT")
    bool serve_http = false;    // the web board and its WebSocket API on http_host:http_port (--http, docs/web.md)
    std::string http_host = "127.0.0.1";
    std::uint16_t http_port = 8080;                              // printed like port, after it
    std::shared_ptr<const std::vector<data::Opening>> openings;  // the web API's openings (--openings)
    std::size_t max_line = 65536;
    std::chrono::seconds idle_timeout{300};
    std::size_t max_sessions = 64;
    std::size_t max_memory_mib = 1024;  // budget for all sessions' hash tables
    std::size_t max_pending_output = 8 << 20;
    int max_threads = 0;                         // search threads of all sessions together; 0: the machine's cores
    std::chrono::seconds max_search_time{3600};  // a longer job (go infinite...) is stopped; 0: no limit
    std::chrono::seconds reclaim_idle{30};       // when full, a session idle this long makes room for a new client
    std::chrono::seconds write_timeout{30};      // a write (or a WebSocket close) taking longer: disconnected
    std::vector<std::string> allowed_hosts;      // --allow-host: names browser pages may use (web_channel.hpp)
    session::SessionConfig session;              // its budget pointers and file access are set by the server
    std::string data_dir;                        // canonical --data-dir (files clients may name); empty: none
};

// "HOST:PORT", "[v6addr]:PORT" or ":PORT"/"PORT" (loopback).
[[nodiscard]] Expected<std::pair<std::string, std::uint16_t>> parse_listen_address(std::string_view text);

// Serves until SIGINT/SIGTERM. The text protocol and the web board share the sessions and their limits. Returns the
// exit code (0 after a graceful shutdown, 1 when it cannot listen).
[[nodiscard]] int run_tcp_server(const TcpOptions& options);

}  // namespace reversi::transport
