#include "protocol/transport/tcp_server.hpp"

#include <utility>  // before asio (see tcp_connection.hpp)

#include <malloc.h>

#include <cstdio>
#include <random>
#include <thread>
#include <unordered_map>

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "protocol/session/memory_budget.hpp"
#include "protocol/session/thread_budget.hpp"
#include "protocol/text/tokens.hpp"
#include "protocol/transport/session_reaper.hpp"
#include "protocol/transport/tcp_connection.hpp"
#include "protocol/transport/web_channel.hpp"

namespace reversi::transport {

using asio::ip::tcp;
using boost::system::error_code;

Expected<std::pair<std::string, std::uint16_t>> parse_listen_address(std::string_view text) {
    std::string host = "127.0.0.1";
    std::string_view port_text = text;
    const std::size_t colon = text.rfind(':');
    if (colon != std::string_view::npos) {
        std::string_view h = text.substr(0, colon);
        if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
        if (!h.empty()) host = std::string(h);
        port_text = text.substr(colon + 1);
    }
    auto port = text::parse_integer(port_text, 0, 65535, "port");
    if (!port) return port.error();
    error_code ec;
    asio::ip::make_address(host, ec);
    if (ec) return make_error(text::quote(host) + " is not an IP address");
    return std::pair{host, static_cast<std::uint16_t>(*port)};
}

namespace {

// Large blocks (hash tables) always come from mmap and go back to the system when freed: without a fixed
// threshold glibc raises it after the first free (up to 32 MiB), and later tables stay in the heap after
// their session has ended. (TcpConnection's destructor trims what is left.)
void configure_allocator() { mallopt(M_MMAP_THRESHOLD, 1 << 20); }

int hardware_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

// The server's shares of memory and threads. Sessions hold pointers to them and give their share back
// when destroyed, and a session can outlive the Server: a connection still open at shutdown (one that did
// not drain) is destroyed with the io_context's pending handlers. So the budgets are created before the
// io_context and destroyed after it (run_tcp_server).
struct ServerBudgets {
    explicit ServerBudgets(const TcpOptions& options)
        : memory(options.max_memory_mib), threads(options.max_threads > 0 ? options.max_threads : hardware_threads()) {}
    session::MemoryBudget memory;
    session::ThreadBudget threads;
};

class Server {
public:
    Server(asio::io_context& io, const TcpOptions& options, ServerBudgets& budgets, SessionReaper& reaper)
        : io_(io),
          options_(options),
          acceptor_(io),
          http_acceptor_(io),
          signals_(io, SIGINT, SIGTERM),
          budget_(budgets.memory),
          threads_(budgets.threads),
          reaper_(reaper),
          shutdown_timer_(io) {
        options_.session.budget = &budget_;
        options_.session.threads = &threads_;
        options_.session.files = session::FileAccess{true, options.data_dir};
        http_.api.openings = options.openings;
        http_.api.max_message = options.max_line;
        http_.api.idle_timeout_s = options.idle_timeout.count();
        http_.allowed_hosts = options.allowed_hosts;
        http_.allowed_hosts.push_back(text::lowercase(options.http_host));  // --http's own host, by any name
        if (!budget_.reserve(session::kServerBaseMiB)) {
            spdlog::warn("--max-memory {} MiB is less than the server's own {} MiB: no session will fit",
                         options.max_memory_mib, session::kServerBaseMiB);
        }
    }

    // Binds every listener first, then announces them: a server that cannot listen on one of its
    // addresses prints no "listening" line at all (a supervisor reading stdout must not think it is up).
    Expected<bool> listen() {
        if (options_.serve_lines) {
            auto bound = bind(acceptor_, options_.host, options_.port);
            if (!bound) return bound.error();
        }
        if (options_.serve_http) {
            auto bound = bind(http_acceptor_, options_.http_host, options_.http_port);
            if (!bound) return bound.error();
        }
        if (options_.serve_lines) announce(acceptor_);
        if (options_.serve_http) {
            announce(http_acceptor_);
            const auto local = http_acceptor_.local_endpoint();
            spdlog::info("web board at http://{}:{}/ (WebSocket API at /ws, {} openings)", local.address().to_string(),
                         local.port(), options_.openings ? options_.openings->size() : 0);
        }
        spdlog::info(
            "max {} sessions, {} MiB for hash tables, {} search threads, idle timeout {} s, search time limit {} s, "
            "data directory {}",
            options_.max_sessions, options_.max_memory_mib, threads_.total(), options_.idle_timeout.count(),
            options_.max_search_time.count(),
            options_.data_dir.empty() ? "none: clients cannot name files" : options_.data_dir);
        std::fflush(stdout);
        return true;
    }

    // Opens, binds and listens.
    static Expected<bool> bind(tcp::acceptor& acceptor, const std::string& host, std::uint16_t port) {
        error_code ec;
        const tcp::endpoint endpoint(asio::ip::make_address(host, ec), port);
        if (ec) return make_error("bad address " + host);
        acceptor.open(endpoint.protocol(), ec);
        if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
        if (!ec) acceptor.bind(endpoint, ec);
        if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) return make_error("cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message());
        return true;
    }

    // Prints "listening HOST:PORT" on stdout (the port chosen for port 0).
    static void announce(const tcp::acceptor& acceptor) {
        const auto local = acceptor.local_endpoint();
        spdlog::info("listening on {}:{}", local.address().to_string(), local.port());
        std::printf("listening %s:%u\n", local.address().to_string().c_str(), static_cast<unsigned>(local.port()));
    }

    void start() {
        if (options_.serve_lines) spawn_accept_loop(acceptor_, false);
        if (options_.serve_http) spawn_accept_loop(http_acceptor_, true);
        signals_.async_wait([this](const error_code& ec, int signo) {
            try {
                if (!ec) shutdown(signo);
            } catch (const std::exception& e) {
                spdlog::error("shutdown failed: {}", e.what());
            }
        });
    }

private:
    // An accept loop; restarted after an exception (logged) unless the server is shutting down.
    void spawn_accept_loop(tcp::acceptor& acceptor, bool http) {
        asio::co_spawn(io_, accept_loop(acceptor, http), [this, &acceptor, http](std::exception_ptr error) {
            if (!error) return;
            try {
                std::rethrow_exception(error);
            } catch (const std::exception& e) {
                spdlog::error("accept loop failed: {}; restarting it", e.what());
            } catch (...) {
                spdlog::error("accept loop failed; restarting it");
            }
            if (!shutting_down_) spawn_accept_loop(acceptor, http);
        });
    }

    asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, bool http) {
        while (!shutting_down_) {
            error_code ec;
            tcp::socket socket = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
            if (ec) {
                if (shutting_down_) break;
                spdlog::warn("accept failed: {}", ec.message());
                continue;
            }
            try {
                if (http) {
                    serve_http_client(std::move(socket));
                } else {
                    open_session(make_line_channel(std::move(socket), options_.max_line));
                }
            } catch (const std::exception& e) {  // e.g. std::bad_alloc: this client is lost, the server goes on
                spdlog::error("cannot open a session: {}", e.what());
            }
        }
    }

    // A client of --http: its requests are served until it upgrades to a WebSocket (a session) or leaves.
    // Clients that have not upgraded are capped (kMaxHttpClientsPerSession per session slot); at the cap
    // the one that has waited the longest for its next request is closed to make room, so that keep-alive
    // connections held open for ever cannot lock new clients out (before the thirty-eighth session the new
    // client was refused). One being answered, or upgrading, is not closed.
    void serve_http_client(tcp::socket socket) {
        if (http_clients_ >= kMaxHttpClientsPerSession * options_.max_sessions && !close_idlest_http_client()) {
            spdlog::warn("refusing an HTTP client: {} connections open without a WebSocket", http_clients_);
            error_code ec;
            socket.close(ec);
            return;
        }
        const std::uint64_t seed = seeds_();
        const std::uint64_t id = next_http_client_++;
        auto handle = std::make_shared<HttpClientHandle>();
        http_handles_.emplace(id, handle);
        ++http_clients_;
        try {
            asio::co_spawn(io_,
                           serve_http(
                               std::move(socket), http_, seed,
                               [this](std::unique_ptr<Channel> channel) { open_session(std::move(channel)); }, handle),
                           [this, id](std::exception_ptr error) {
                               --http_clients_;
                               http_handles_.erase(id);
                               if (!error) return;
                               try {
                                   std::rethrow_exception(error);
                               } catch (const std::exception& e) {
                                   spdlog::warn("HTTP client failed: {}", e.what());
                               } catch (...) {
                               }
                           });
        } catch (...) {  // std::bad_alloc: the client is not served (the socket closes with the coroutine)
            --http_clients_;
            http_handles_.erase(id);
            throw;
        }
    }

    // Closes the HTTP client without a WebSocket that has waited the longest for its next request; false
    // when none waits (each is being answered or upgrading).
    bool close_idlest_http_client() {
        auto idlest = http_handles_.end();
        for (auto it = http_handles_.begin(); it != http_handles_.end(); ++it) {
            const auto& h = *it->second;
            if (!h.close || !h.waiting_since) continue;
            if (idlest == http_handles_.end() || *h.waiting_since < *idlest->second->waiting_since) idlest = it;
        }
        if (idlest == http_handles_.end()) return false;
        spdlog::info("closing the HTTP client idle the longest ({} open without a WebSocket) for a new one",
                     http_clients_);
        idlest->second->close();
        http_handles_.erase(idlest);
        return true;
    }

    void open_session(std::unique_ptr<Channel> channel) {
        const ConnectionLimits limits{options_.max_line, options_.idle_timeout, options_.max_pending_output,
                                      options_.max_search_time, options_.write_timeout};
        auto connection = std::make_shared<TcpConnection>(
            std::move(channel), limits,
            [this](TcpConnection* c) {
                if (c->refused()) --refusing_;
                connections_.erase(c);
            },
            &reaper_);
        if (shutting_down_) {
            refuse(*connection, "the server is shutting down");
            return;
        }
        if (connections_.size() >= options_.max_sessions && !reclaim_idle_session()) {
            spdlog::warn("refusing a client: {} sessions already open", connections_.size());
            refuse(*connection,
                   "server is full (" + std::to_string(options_.max_sessions) + " sessions); try again later");
            return;
        }
        auto started = connection->start(options_.session);
        if (!started) {
            spdlog::warn("refusing client {}: {}", connection->peer(), started.error().message);
            refuse(*connection, started.error().message);
            return;
        }
        connections_.emplace(connection.get(), connection);
        spdlog::info("connection {}: session opened ({} open)", connection->peer(), connections_.size());
    }

    // A refused client is told why, then closed; a WebSocket's closing handshake may take up to the request
    // timeout. At most kMaxHttpClientsPerSession per session slot close at once: beyond, a refused client is
    // closed without the message (a flood of refused WebSockets used to hold a socket each for 30 s, with
    // no limit on their number).
    void refuse(TcpConnection& connection, const std::string& message) {
        if (refusing_ >= kMaxHttpClientsPerSession * options_.max_sessions) {
            spdlog::warn("closing a refused client at once: {} refused clients are still closing", refusing_);
            connection.close_now();
            return;
        }
        ++refusing_;
        try {
            connection.refuse(message);
        } catch (...) {  // no write loop started: close it here, which reports it closed (and counts it)
            connection.close_now();
            throw;
        }
    }

    // The session idle the longest, if it has been idle for --reclaim-idle, is closed for a new client.
    bool reclaim_idle_session() {
        const auto now = std::chrono::steady_clock::now();
        std::shared_ptr<TcpConnection> oldest;
        std::chrono::steady_clock::duration longest{};
        for (auto& [ptr, weak] : connections_) {
            auto c = weak.lock();
            if (!c) continue;
            const auto idle = c->idle_for(now);
            if (idle >= options_.reclaim_idle && idle > longest) {
                longest = idle;
                oldest = std::move(c);
            }
        }
        if (!oldest) return false;
        oldest->reclaim();
        return connections_.size() < options_.max_sessions;
    }

    void shutdown(int signo) {
        spdlog::info("signal {}: stopping {} sessions and shutting down", signo, connections_.size());
        shutting_down_ = true;
        error_code ec;
        acceptor_.close(ec);
        http_acceptor_.close(ec);
        // Copy: shutting a connection down may remove it from the map.
        std::vector<std::shared_ptr<TcpConnection>> open;
        for (auto& [ptr, weak] : connections_) {
            if (auto c = weak.lock()) open.push_back(c);
        }
        for (auto& c : open) c->shutdown_gracefully();
        shutdown_timer_.expires_after(std::chrono::seconds(5));
        shutdown_timer_.async_wait([this](const error_code& e) {
            if (e) return;
            spdlog::warn("shutdown: closing {} connections that did not drain in 5 s", connections_.size());
            std::vector<std::shared_ptr<TcpConnection>> left;
            for (auto& [ptr, weak] : connections_) {
                if (auto c = weak.lock()) left.push_back(c);
            }
            for (auto& c : left) c->close_now();
        });
        poll_drained();
    }

    // Every session has sent its last lines and closed: the loop stops. HTTP clients that never upgraded
    // (a browser's idle keep-alive connection) would otherwise hold it for their request timeout.
    void poll_drained() {
        if (connections_.empty()) {
            shutdown_timer_.cancel();
            io_.stop();
            return;
        }
        drain_timer_ = std::make_unique<asio::steady_timer>(io_, std::chrono::milliseconds(10));
        drain_timer_->async_wait([this](const error_code&) { poll_drained(); });
    }

    asio::io_context& io_;
    TcpOptions options_;
    static constexpr std::size_t kMaxHttpClientsPerSession = 2;

    tcp::acceptor acceptor_;
    tcp::acceptor http_acceptor_;
    std::size_t http_clients_ = 0;
    std::unordered_map<std::uint64_t, std::shared_ptr<HttpClientHandle>> http_handles_;  // by client id
    std::uint64_t next_http_client_ = 0;
    std::size_t refusing_ = 0;  // refused clients still closing (refuse())
    HttpOptions http_;          // what every HTTP client is served with
    std::mt19937_64 seeds_{std::random_device{}()};
    asio::signal_set signals_;
    session::MemoryBudget& budget_;
    session::ThreadBudget& threads_;
    SessionReaper& reaper_;
    asio::steady_timer shutdown_timer_;
    std::unique_ptr<asio::steady_timer> drain_timer_;
    std::unordered_map<TcpConnection*, std::weak_ptr<TcpConnection>> connections_;
    bool shutting_down_ = false;
};

}  // namespace

int run_tcp_server(const TcpOptions& options) {
    configure_allocator();
    ServerBudgets budgets(options);  // outlives the io_context and the sessions it may still hold
    SessionReaper reaper;            // after the budgets: the sessions it ends give their shares back
    asio::io_context io(1);
    auto server = std::make_unique<Server>(io, options, budgets, reaper);
    auto listening = server->listen();
    if (!listening) {
        spdlog::error("{}", listening.error().message);
        return 1;
    }
    server->start();
    // Handlers catch their own exceptions; this is the last line of defence: log and keep serving.
    for (;;) {
        try {
            io.run();
            break;
        } catch (const std::exception& e) {
            spdlog::error("an exception escaped a handler: {}; the server goes on", e.what());
        } catch (...) {
            spdlog::error("an unknown exception escaped a handler; the server goes on");
        }
    }
    reaper.close();  // before the io_context goes: the jobs of the sessions it ends post their last lines to it
    spdlog::info("server stopped");
    return 0;
}

}  // namespace reversi::transport
