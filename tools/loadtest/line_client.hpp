#pragma once
// Clients of reversi-engine for the load and stop-latency benchmarks: a line channel over a file
// descriptor pair (pipes or a TCP socket) with timeouts, the engine as a child process, a TCP connect.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace reversi::loadtest {

class Channel {
public:
    Channel() = default;
    Channel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {}
    Channel(Channel&& o) noexcept;
    Channel& operator=(Channel&& o) noexcept;
    ~Channel();

    [[nodiscard]] bool valid() const noexcept { return read_fd_ >= 0; }
    bool send(const std::string& line);
    std::optional<std::string> read_line(std::chrono::milliseconds timeout);
    // Reads until a line starting with `prefix` (returned) or timeout/end (nullopt).
    std::optional<std::string> wait_for(const std::string& prefix, std::chrono::milliseconds timeout);
    void close();

private:
    int read_fd_ = -1;
    int write_fd_ = -1;
    std::string buffer_;
};

class Child {
public:
    Child(const std::string& binary, const std::vector<std::string>& args);
    ~Child();
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    Channel& io() { return io_; }
    [[nodiscard]] pid_t pid() const noexcept { return pid_; }
    [[nodiscard]] long rss_kib() const;
    // Sends SIGTERM and waits; the exit code (or -signal).
    int terminate(std::chrono::milliseconds timeout);

private:
    pid_t pid_ = -1;
    Channel io_;
    bool reaped_ = false;
};

[[nodiscard]] Channel connect_tcp(int port);
// The reversi-engine next to this tool in the build tree (../protocol/reversi-engine).
[[nodiscard]] std::string default_engine_path();

}  // namespace reversi::loadtest
