#pragma once
// A line-oriented connection to one engine: a child process on pipes (stdin/stdout) or a TCP socket.
// Reads wait with poll() up to a deadline, so a silent engine is detected as a hang; a closed pipe or
// socket is detected as a crash. close() ends the engine: for a process it closes stdin, waits a short
// grace period and then kills the whole process group.
#include <sys/types.h>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/expected.hpp"

namespace reversi::match {

using SteadyClock = std::chrono::steady_clock;

// Where an engine lives: a command line to spawn, or host:port of a running server.
struct EngineEndpoint {
    std::vector<std::string> command;  // argv; empty when tcp is set
    std::string tcp_host;              // non-empty: connect to tcp_host:tcp_port
    int tcp_port = 0;
    std::string stderr_file;      // child's stderr appended here ("" = /dev/null)
    std::string working_dir;      // child's working directory ("" = unchanged)
    std::string transcript_file;  // every line written ("> ") and read ("< ") appended here ("" = none)
};

enum class ReadStatus { Line, Timeout, Closed, TooLong, Aborted };

struct ReadResult {
    ReadStatus status = ReadStatus::Closed;
    std::string line;  // without the end of line (\n, \r\n)
};

class EngineConnection {
public:
    ~EngineConnection();
    EngineConnection(const EngineConnection&) = delete;
    EngineConnection& operator=(const EngineConnection&) = delete;

    // Spawns the process (own process group; killed when the spawning thread's process dies) or connects
    // (given up at `connect_deadline`, or at once when `abort` becomes true).
    [[nodiscard]] static Expected<std::unique_ptr<EngineConnection>> open(
        const EngineEndpoint& endpoint, SteadyClock::time_point connect_deadline = SteadyClock::time_point::max(),
        const std::atomic<bool>* abort = nullptr);

    // Writes one line (a '\n' is appended). False when the engine is gone.
    [[nodiscard]] bool send_line(const std::string& line);
    // The next line, or Timeout when `deadline` passes first, or Closed at end of stream, or Aborted
    // (checked every 50 ms) when the abort flag given to set_abort_flag() becomes true.
    [[nodiscard]] ReadResult read_line(SteadyClock::time_point deadline);
    void set_abort_flag(const std::atomic<bool>* abort) noexcept { abort_ = abort; }
    // Ends the engine (see above). Safe to call twice.
    void close(std::chrono::milliseconds grace = std::chrono::milliseconds(200));
    // Every line read and written, for error messages: the last few. (All of them go to the endpoint's
    // transcript file when it names one.)
    [[nodiscard]] std::string recent_traffic() const;
    // The last line the engine sent (at most 200 bytes), empty when none.
    [[nodiscard]] std::string last_received() const;

private:
    // Starts the engine's command as a child process on two pipes (open() after its checks).
    [[nodiscard]] Expected<bool> start_process(const EngineEndpoint& endpoint);
    EngineConnection() = default;
    void remember(const std::string& prefix, const std::string& line);
    // The spawned process has exited (it stays waitable).
    [[nodiscard]] bool process_ended() const;

    int read_fd_ = -1;
    int write_fd_ = -1;  // same as read_fd_ for TCP
    int transcript_fd_ = -1;
    pid_t pid_ = -1;
    bool is_tcp_ = false;
    std::string buffer_;
    std::vector<std::string> traffic_;
    const std::atomic<bool>* abort_ = nullptr;
};

inline constexpr std::size_t kMaxLineLength = 1 << 20;

}  // namespace reversi::match
