#include "protocol/transport/tcp_connection.hpp"

#include <malloc.h>

#include <spdlog/spdlog.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace reversi::transport {

using asio::ip::tcp;
using boost::system::error_code;

TcpConnection::TcpConnection(tcp::socket socket, ConnectionLimits limits, OnClosed on_closed)
    : socket_(std::move(socket)),
      limits_(limits),
      on_closed_(std::move(on_closed)),
      write_signal_(socket_.get_executor()),
      idle_timer_(socket_.get_executor()),
      last_input_(std::chrono::steady_clock::now()) {
    error_code ec;
    const auto endpoint = socket_.remote_endpoint(ec);
    peer_ = ec ? std::string("unknown peer") : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
    socket_.set_option(tcp::no_delay(true), ec);
}

TcpConnection::~TcpConnection() {
    session_.reset();  // joins the search thread, frees the tables
    malloc_trim(0);    // and gives the freed heap back to the system
    spdlog::debug("connection {}: freed", peer_);
}

Expected<bool> TcpConnection::start(const dispatch::SessionConfig& config) {
    std::weak_ptr<TcpConnection> weak = shared_from_this();
    auto executor = socket_.get_executor();
    session::LineSink sink = [weak, executor](std::string line) {
        asio::post(executor, [weak, line = std::move(line)]() mutable {
            if (auto self = weak.lock()) self->guarded("output", [&] { self->deliver(std::move(line)); });
        });
    };
    session::JobDoneNotifier job_done = [weak, executor] {
        asio::post(executor, [weak] {
            if (auto self = weak.lock()) self->guarded("resume", [&] { self->resume_session(); });
        });
    };
    auto created = dispatch::Session::create(config, std::move(sink), std::move(job_done));
    if (!created) return created.error();
    session_ = std::move(*created);
    auto self = shared_from_this();
    const auto on_end = [self](const char* where) {
        return [self, where](std::exception_ptr error) {
            if (error) self->fail(where, error);
        };
    };
    asio::co_spawn(
        executor, [self] { return self->read_loop(); }, on_end("reader"));
    asio::co_spawn(
        executor, [self] { return self->write_loop(); }, on_end("writer"));
    asio::co_spawn(
        executor, [self] { return self->watchdog(); }, on_end("watchdog"));
    return true;
}

void TcpConnection::fail(const char* where, std::exception_ptr error) noexcept {
    try {
        std::string what = "unknown exception";
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        spdlog::error("connection {}: internal error in the {}: {}; closing the connection", peer_, where, what);
        deliver("info string error: internal error in the server (" + what + "); closing the connection");
        close_after_flush();
    } catch (...) {
        try {
            close_now();
        } catch (...) {  // nothing left to try; the server goes on
        }
    }
}

std::chrono::steady_clock::duration TcpConnection::idle_for(std::chrono::steady_clock::time_point now) const {
    if (closing_ || closed_ || !session_ || session_->busy()) return {};
    return now - last_input_;
}

void TcpConnection::reclaim() {
    const auto idle = std::chrono::duration_cast<std::chrono::seconds>(idle_for(std::chrono::steady_clock::now()));
    spdlog::info("connection {}: idle for {} s while the server is full; closing it to make room", peer_, idle.count());
    deliver("info string error: idle for " + std::to_string(idle.count()) +
            " s while the server is full; closing the connection to make room");
    close_after_flush();
    session_.reset();  // not busy: frees the tables at once
    if (!reported_closed_) {
        reported_closed_ = true;
        if (on_closed_) on_closed_(this);
    }
}

asio::awaitable<void> TcpConnection::read_loop() {
    std::string buffer;
    while (!closing_ && !closed_) {
        error_code ec;
        const std::size_t n =
            co_await asio::async_read_until(socket_, asio::dynamic_buffer(buffer, limits_.max_line + 1), '\n',
                                            asio::redirect_error(asio::use_awaitable, ec));
        if (ec == asio::error::not_found) {
            spdlog::warn("connection {}: line longer than {} bytes; closing", peer_, limits_.max_line);
            deliver("info string error: line longer than " + std::to_string(limits_.max_line) +
                    " bytes; closing the connection");
            close_after_flush();
            break;
        }
        if (ec) {
            if (closing_) break;  // our own shutdown of the receiving side: the writer closes after the flush
            if (!closed_) spdlog::info("connection {}: client disconnected ({})", peer_, ec.message());
            close_now();
            break;
        }
        if (closing_ || closed_ || !session_) break;
        std::string_view line(buffer.data(), n - 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (session_->counts_as_activity(line)) last_input_ = std::chrono::steady_clock::now();
        if (session_->handle_line(line) == session::Status::Quit) {
            spdlog::info("connection {}: quit", peer_);
            close_after_flush();
            break;
        }
        buffer.erase(0, n);
    }
}

asio::awaitable<void> TcpConnection::write_loop() {
    while (!closed_) {
        if (queue_.empty()) {
            if (closing_) break;
            error_code ec;
            write_signal_.expires_at(std::chrono::steady_clock::time_point::max());
            co_await write_signal_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        error_code ec;
        co_await asio::async_write(socket_, asio::buffer(queue_.front()),
                                   asio::redirect_error(asio::use_awaitable, ec));
        if (ec || closed_) {
            if (ec && !closed_) spdlog::info("connection {}: write failed ({})", peer_, ec.message());
            break;
        }
        queued_bytes_ -= queue_.front().size();
        queue_.pop_front();
    }
    close_now();
}

asio::awaitable<void> TcpConnection::watchdog() {
    using namespace std::chrono;
    const auto tick = std::min<steady_clock::duration>(seconds(1), limits_.idle_timeout);
    while (!closed_ && !closing_) {
        error_code ec;
        idle_timer_.expires_after(tick);
        co_await idle_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (closed_ || closing_) break;
        const auto now = steady_clock::now();
        if (session_ && session_->busy()) {
            last_input_ = now;  // a running search is activity
            enforce_search_time(now);
        }
        if (now - last_input_ >= limits_.idle_timeout) {
            spdlog::info("connection {}: idle for {} s; closing", peer_, limits_.idle_timeout.count());
            deliver("info string error: idle for " + std::to_string(limits_.idle_timeout.count()) +
                    " s; closing the connection");
            close_after_flush();
            break;
        }
    }
}

void TcpConnection::enforce_search_time(std::chrono::steady_clock::time_point now) {
    const auto limit = limits_.max_search_time;
    if (limit.count() <= 0 || session_->job_serial() == stopped_job_ || now - session_->job_started() < limit) return;
    stopped_job_ = session_->job_serial();
    spdlog::info("connection {}: a search ran for {} s, the server's limit; stopping it", peer_, limit.count());
    // Queued here, on the connection's thread, before the stop: through the session's sink it would be
    // posted to this thread's private queue, which asio runs after what the search thread posts in the
    // meantime, and the job's bestmove could come first.
    deliver(session_->error_line("the search reached the server's limit of " + std::to_string(limit.count()) +
                                 " s (--max-search-time); stopped"));
    session_->stop_job();
}

void TcpConnection::resume_session() {
    if (closing_ || closed_ || !session_) return;
    if (session_->resume() == session::Status::Quit) {
        spdlog::info("connection {}: quit", peer_);
        close_after_flush();
    }
}

void TcpConnection::deliver(std::string line) {
    if (closed_) return;
    line += '\n';
    queued_bytes_ += line.size();
    queue_.push_back(std::move(line));
    if (queued_bytes_ > limits_.max_pending_output) {
        spdlog::warn("connection {}: more than {} bytes of unsent output (the client does not read); closing", peer_,
                     limits_.max_pending_output);
        close_now();
        return;
    }
    write_signal_.cancel();
}

void TcpConnection::close_after_flush() {
    if (closing_ || closed_) return;
    closing_ = true;
    if (session_) session_->stop_job();
    error_code ec;
    socket_.shutdown(tcp::socket::shutdown_receive, ec);  // wakes a pending read
    write_signal_.cancel();
    idle_timer_.cancel();
}

void TcpConnection::shutdown_gracefully() {
    if (closed_) return;
    if (session_) session_->shutdown();  // joins: the bestmove is posted before the close below
    auto self = shared_from_this();
    asio::post(socket_.get_executor(), [self] { self->close_after_flush(); });
}

void TcpConnection::close_now() {
    if (!closed_) {
        closed_ = true;
        if (session_) session_->stop_job();
        error_code ec;
        socket_.shutdown(tcp::socket::shutdown_both, ec);
        socket_.close(ec);
        write_signal_.cancel();
        idle_timer_.cancel();
        // The queue is left alone: a write may be in flight on its front; deliver() drops new lines.
    }
    if (!reported_closed_) {
        reported_closed_ = true;
        if (on_closed_) on_closed_(this);
    }
}

}  // namespace reversi::transport
