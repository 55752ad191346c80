#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "protocol/transport/channel.hpp"

namespace reversi::transport {

using asio::ip::tcp;

std::string peer_name(const tcp::socket& socket) {
    error_code ec;
    const auto endpoint = socket.remote_endpoint(ec);
    return ec ? std::string("unknown peer") : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

namespace {

class LineChannel final : public Channel {
public:
    LineChannel(tcp::socket socket, std::size_t max_line)
        : socket_(std::move(socket)), max_line_(max_line), peer_(peer_name(socket_)) {
        error_code ec;
        socket_.set_option(tcp::no_delay(true), ec);
    }

    asio::awaitable<Read> read(std::string& message, error_code& ec) override {
        // Once the end of input was met, no read again: asio does not wait for a second end of stream
        // (the read would hang until the connection closes).
        if (ended_) co_return Read::Ended;
        buffer_.erase(0, consumed_);
        consumed_ = 0;
        std::size_t n = co_await asio::async_read_until(socket_, asio::dynamic_buffer(buffer_, max_line_ + 1), '\n',
                                                        asio::redirect_error(asio::use_awaitable, ec));
        if (ec == asio::error::not_found) co_return Read::TooLong;
        if (ec == asio::error::eof) {
            // A last line without its newline is still a command (as on stdin); the next read ends.
            ended_ = true;
            if (buffer_.empty()) co_return Read::Ended;
            buffer_ += '\n';
            n = buffer_.size();
        } else if (ec) {
            co_return Read::Closed;
        }
        consumed_ = n;
        message.assign(buffer_.data(), n - 1);
        if (!message.empty() && message.back() == '\r') message.pop_back();
        co_return Read::Message;
    }

    asio::awaitable<void> write(const std::string& message, error_code& ec) override {
        co_await asio::async_write(socket_, asio::buffer(message), asio::redirect_error(asio::use_awaitable, ec));
    }

    asio::awaitable<void> finish(bool) override { co_return; }

    void shutdown_receive() override {
        error_code ec;
        socket_.shutdown(tcp::socket::shutdown_receive, ec);
    }

    void close() override {
        error_code ec;
        socket_.shutdown(tcp::socket::shutdown_both, ec);
        socket_.close(ec);
    }

    std::string encode(std::string line) override { return line + '\n'; }
    Decoded decode(std::string message) override { return {{std::move(message)}, {}}; }
    bool too_long_is_fatal() const override { return true; }
    std::string_view unit() const override { return "line"; }
    asio::any_io_executor executor() override { return socket_.get_executor(); }
    std::string peer() const override { return peer_; }

private:
    tcp::socket socket_;
    std::size_t max_line_;
    std::string peer_;
    std::string buffer_;
    std::size_t consumed_ = 0;  // bytes of buffer_ returned by the last read
    bool ended_ = false;        // the client's end of input was met (a half-close)
};

}  // namespace

std::unique_ptr<Channel> make_line_channel(tcp::socket socket, std::size_t max_line) {
    return std::make_unique<LineChannel>(std::move(socket), max_line);
}

}  // namespace reversi::transport
