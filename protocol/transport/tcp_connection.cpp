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

TcpConnection::TcpConnection(std::unique_ptr<Channel> channel, ConnectionLimits limits, OnClosed on_closed,
                             SessionReaper* reaper)
    : channel_(std::move(channel)),
      limits_(limits),
      on_closed_(std::move(on_closed)),
      reaper_(reaper),
      write_signal_(channel_->executor()),
      idle_timer_(channel_->executor()),
      last_input_(std::chrono::steady_clock::now()),
      peer_(channel_->peer()) {}

TcpConnection::~TcpConnection() {
    if (reaper_ && session_) {
        reaper_->dispose(std::move(session_));  // its job may be one that cannot be stopped: not joined here
    } else if (session_) {
        session_.reset();  // joins the search thread, frees the tables
        malloc_trim(0);    // and gives the freed heap back to the system
    }
    spdlog::debug("connection {}: freed", peer_);
}

Expected<bool> TcpConnection::start(const dispatch::SessionConfig& config) {
    std::weak_ptr<TcpConnection> weak = shared_from_this();
    auto executor = channel_->executor();
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
    if (auto greeting = channel_->greeting(); !greeting.empty()) queue_message(std::move(greeting));
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

void TcpConnection::refuse(const std::string& message) {
    refused_ = true;
    closing_ = true;
    deliver("info string error: " + message);
    auto self = shared_from_this();
    asio::co_spawn(
        channel_->executor(), [self] { return self->write_loop(); },
        [self](std::exception_ptr error) {
            if (error) self->close_now();
        });
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
    std::string message;
    while (!closing_ && !closed_) {
        error_code ec;
        const Channel::Read read = co_await channel_->read(message, ec);
        if (read == Channel::Read::TooLong) {
            const std::string what =
                std::string(channel_->unit()) + " longer than " + std::to_string(limits_.max_line) + " bytes";
            if (!channel_->too_long_is_fatal()) {
                deliver(error_line(what + "; ignored"));
                continue;
            }
            spdlog::warn("connection {}: {}; closing", peer_, what);
            deliver(error_line(what + "; closing the connection"));
            close_after_flush();
            break;
        }
        if (read == Channel::Read::Ended) {
            if (closing_ || closed_ || !session_) break;
            spdlog::info("connection {}: the client finished sending; answering what it asked, then closing", peer_);
            input_ended_ = true;
            finish_if_drained();
            break;
        }
        if (read == Channel::Read::Closed) {
            if (closing_) break;  // our own shutdown of the receiving side: the writer closes after the flush
            if (!closed_) spdlog::info("connection {}: client disconnected ({})", peer_, ec.message());
            close_now();
            break;
        }
        if (closing_ || closed_ || !session_) break;
        handle_message(std::move(message));
        message.clear();
    }
}

void TcpConnection::handle_message(std::string message) {
    Channel::Decoded decoded = channel_->decode(std::move(message));
    const auto now = std::chrono::steady_clock::now();
    if (!decoded.replies.empty()) last_input_ = now;  // a request answered at once (web API: position, export)
    for (auto& reply : decoded.replies) queue_message(std::move(reply));
    for (const auto& line : decoded.lines) {
        if (closing_ || closed_ || !session_) return;
        if (session_->counts_as_activity(line)) last_input_ = now;
        if (session_->handle_line(line) == session::Status::Quit) {
            spdlog::info("connection {}: quit", peer_);
            close_after_flush();
            return;
        }
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
        write_since_ = std::chrono::steady_clock::now();
        co_await channel_->write(queue_.front(), ec);
        write_since_ = std::chrono::steady_clock::time_point::max();
        if (ec || closed_) {
            if (ec && !closed_) spdlog::info("connection {}: write failed ({})", peer_, ec.message());
            break;
        }
        queued_bytes_ -= queue_.front().size();
        queue_.pop_front();
    }
    if (!closed_) {
        write_since_ = std::chrono::steady_clock::now();
        co_await channel_->finish(refused_);
        write_since_ = std::chrono::steady_clock::time_point::max();
    }
    close_now();
}

asio::awaitable<void> TcpConnection::watchdog() {
    using namespace std::chrono;
    const auto tick =
        std::min<steady_clock::duration>(seconds(1), std::min(limits_.idle_timeout, limits_.write_timeout));
    // While the connection closes after its flush, only the write timeout is watched.
    while (!closed_) {
        error_code ec;
        idle_timer_.expires_after(tick);
        co_await idle_timer_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
        if (closed_) break;
        const auto now = steady_clock::now();
        if (enforce_write_timeout(now) || enforce_socket_drain(now)) break;
        if (closing_) continue;
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

bool TcpConnection::enforce_write_timeout(std::chrono::steady_clock::time_point now) {
    if (write_since_ == std::chrono::steady_clock::time_point::max() || now - write_since_ < limits_.write_timeout)
        return false;
    spdlog::warn("connection {}: the client has not read the server's output for {} s; closing", peer_,
                 limits_.write_timeout.count());
    close_now();  // the write in flight fails, the coroutines end and the session is freed
    return true;
}

bool TcpConnection::enforce_socket_drain(std::chrono::steady_clock::time_point now) {
    const auto unsent = channel_->unsent_bytes();
    if (!unsent) return false;
    if (*unsent == 0 || *unsent < last_unsent_) draining_since_ = now;
    last_unsent_ = *unsent;
    if (*unsent == 0 || now - draining_since_ < limits_.write_timeout) return false;
    spdlog::warn("connection {}: the client has not read the server's output for {} s ({} bytes unsent); closing",
                 peer_, limits_.write_timeout.count(), *unsent);
    close_now();
    return true;
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
        return;
    }
    if (input_ended_) finish_if_drained();
}

void TcpConnection::finish_if_drained() {
    // drain_step stops a job that would never end by itself (go infinite); the job's end calls
    // resume_session, which runs the waiting commands and comes back here.
    if (!closing_ && !closed_ && session_ && !session_->drain_step()) close_after_flush();
}

std::string TcpConnection::error_line(const std::string& message) const {
    return session_ ? session_->error_line(message) : "info string error: " + message;
}

void TcpConnection::deliver(std::string line) {
    if (closed_) return;
    queue_message(channel_->encode(std::move(line)));
}

void TcpConnection::queue_message(std::string message) {
    if (closed_) return;
    queued_bytes_ += message.size();
    queue_.push_back(std::move(message));
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
    channel_->shutdown_receive();  // wakes a pending read
    write_signal_.cancel();
    idle_timer_.cancel();
}

void TcpConnection::shutdown_gracefully() {
    if (closed_) return;
    if (session_) session_->shutdown();  // joins: the bestmove is posted before the close below
    auto self = shared_from_this();
    asio::post(channel_->executor(), [self] { self->close_after_flush(); });
}

void TcpConnection::close_now() {
    if (!closed_) {
        closed_ = true;
        if (session_) session_->stop_job();
        channel_->close();
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
