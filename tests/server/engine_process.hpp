#pragma once
// Test helpers that drive the real reversi-engine binary: as a child process over pipes, and as a TCP
// client of a server child. Lines are read with timeouts so that a hang fails the test instead of
// blocking ctest.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace reversi::testing {

using namespace std::chrono_literals;

// Path of the binary under test (REVERSI_BINARY_DIR/protocol/reversi-engine).
std::string engine_binary();

// Buffered line reader/writer over a pair of file descriptors (a pipe pair or one socket).
class LineChannel {
public:
    LineChannel() = default;
    LineChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {}
    LineChannel(LineChannel&& other) noexcept;
    LineChannel& operator=(LineChannel&& other) noexcept;
    ~LineChannel();

    bool send(const std::string& line);  // appends '\n'
    bool send_raw(const std::string& bytes);
    // The next line, or nullopt on timeout or end of stream.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout = 10s);
    // Reads lines until one starts with `prefix`; the lines read (the match last) or empty on timeout.
    std::vector<std::string> read_until(const std::string& prefix, std::chrono::milliseconds timeout = 10s);
    // Sends isready and reads up to its readyok, as a GUI does before its clocks start (an engine that has
    // just been launched answers after its start-up: seconds under the sanitizers); false on timeout.
    bool wait_ready(std::chrono::milliseconds timeout = 60s);
    // True when the peer closed the stream within the timeout (any pending lines are skipped).
    bool wait_closed(std::chrono::milliseconds timeout = 10s);
    void close_write();
    void close_all();

private:
    int read_fd_ = -1;
    int write_fd_ = -1;
    std::string buffer_;
    bool eof_ = false;
};

// The engine as a child process; stderr goes to /dev/null unless `keep_stderr` (the test's stderr) or
// `merge_stderr` (into the same pipe as stdout, as the NBoard GUI starts its engines).
class EngineProcess {
public:
    explicit EngineProcess(const std::vector<std::string>& args = {}, bool keep_stderr = false,
                           bool merge_stderr = false);
    ~EngineProcess();  // kills the child if still running
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    LineChannel& io() { return io_; }
    pid_t pid() const { return pid_; }
    void signal(int signo);
    // Exit code, or nullopt when the child did not exit within the timeout (or died from a signal: -signo).
    std::optional<int> wait_exit(std::chrono::milliseconds timeout = 10s);
    // Number of threads of the child (from /proc/PID/task).
    int thread_count() const;
    // Resident memory of the child in KiB (from /proc/PID/status).
    long rss_kib() const;
    // Peak resident memory of the child in KiB (VmHWM).
    long peak_rss_kib() const;

private:
    long status_kib(const std::string& field) const;

    pid_t pid_ = -1;
    LineChannel io_;
    bool exited_ = false;
};

// A TCP server child on 127.0.0.1 with a free port (reads the "listening HOST:PORT" line).
class ServerProcess {
public:
    explicit ServerProcess(const std::vector<std::string>& extra_args = {});
    EngineProcess& process() { return process_; }
    int port() const { return port_; }
    // A new client connection (an invalid channel when the connection fails); `receive_buffer` > 0 sets
    // the socket's receive buffer (bytes) first, for a client that reads slowly or never.
    LineChannel connect(int receive_buffer = 0) const;

private:
    EngineProcess process_;
    int port_ = 0;
};

}  // namespace reversi::testing
