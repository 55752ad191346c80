#include "engine_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>
#include <cerrno>
#include <fstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace reversi::testing {

std::string engine_binary() { return std::string(REVERSI_BINARY_DIR) + "/protocol/reversi-engine"; }

LineChannel::LineChannel(LineChannel&& o) noexcept
    : read_fd_(o.read_fd_), write_fd_(o.write_fd_), buffer_(std::move(o.buffer_)), eof_(o.eof_) {
    o.read_fd_ = o.write_fd_ = -1;
}

LineChannel& LineChannel::operator=(LineChannel&& o) noexcept {
    if (this != &o) {
        close_all();
        read_fd_ = o.read_fd_;
        write_fd_ = o.write_fd_;
        buffer_ = std::move(o.buffer_);
        eof_ = o.eof_;
        o.read_fd_ = o.write_fd_ = -1;
    }
    return *this;
}

LineChannel::~LineChannel() { close_all(); }

void LineChannel::close_write() {
    if (write_fd_ >= 0 && write_fd_ != read_fd_) ::close(write_fd_);
    if (write_fd_ >= 0 && write_fd_ == read_fd_) ::shutdown(write_fd_, SHUT_WR);
    write_fd_ = -1;
}

void LineChannel::close_all() {
    if (write_fd_ >= 0 && write_fd_ != read_fd_) ::close(write_fd_);
    if (read_fd_ >= 0) ::close(read_fd_);
    read_fd_ = write_fd_ = -1;
}

bool LineChannel::send_raw(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        if (write_fd_ < 0) return false;
        const ssize_t n = ::send(write_fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK) {
            const ssize_t m = ::write(write_fd_, bytes.data() + done, bytes.size() - done);
            if (m < 0 && errno == EINTR) continue;
            if (m <= 0) return false;
            done += static_cast<std::size_t>(m);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

bool LineChannel::send(const std::string& line) { return send_raw(line + "\n"); }

std::optional<std::string> LineChannel::read_line(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const std::size_t nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            return line;
        }
        if (eof_ || read_fd_ < 0) return std::nullopt;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        pollfd pfd{read_fd_, POLLIN, 0};
        const int r = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return std::nullopt;
        char chunk[65536];
        const ssize_t n = ::read(read_fd_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            eof_ = true;
            continue;
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

std::vector<std::string> LineChannel::read_until(const std::string& prefix, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::vector<std::string> lines;
    while (true) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        auto line = read_line(std::max(left, std::chrono::milliseconds(0)));
        if (!line) return {};
        lines.push_back(*line);
        if (line->rfind(prefix, 0) == 0) return lines;
    }
}

bool LineChannel::wait_ready(std::chrono::milliseconds timeout) {
    return send("isready") && !read_until("readyok", timeout).empty();
}

bool LineChannel::wait_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (!read_line(left)) return eof_;
    }
    return eof_;
}

EngineProcess::EngineProcess(const std::vector<std::string>& args, bool keep_stderr, bool merge_stderr) {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    if (merge_stderr) {
        posix_spawn_file_actions_adddup2(&actions, from_child[1], 2);
    } else if (!keep_stderr) {
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    }
    const std::string binary = engine_binary();
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_child[0]);
    ::close(from_child[1]);
    if (rc != 0) throw std::runtime_error("cannot start " + binary);
    io_ = LineChannel(from_child[0], to_child[1]);
}

EngineProcess::~EngineProcess() {
    if (!exited_ && pid_ > 0) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

void EngineProcess::signal(int signo) { ::kill(pid_, signo); }

std::optional<int> EngineProcess::wait_exit(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        int status = 0;
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            exited_ = true;
            if (WIFEXITED(status)) return WEXITSTATUS(status);
            if (WIFSIGNALED(status)) return -WTERMSIG(status);
            return std::nullopt;
        }
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(5ms);
    }
}

int EngineProcess::thread_count() const {
    const std::string dir = "/proc/" + std::to_string(pid_) + "/task";
    int count = 0;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            if (e->d_name[0] != '.') ++count;
        }
        ::closedir(d);
    }
    return count;
}

long EngineProcess::rss_kib() const { return status_kib("VmRSS:"); }
long EngineProcess::peak_rss_kib() const { return status_kib("VmHWM:"); }

long EngineProcess::status_kib(const std::string& field) const {
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string key;
    while (in >> key) {
        if (key == field) {
            long kib = 0;
            in >> kib;
            return kib;
        }
    }
    return -1;
}

ServerProcess::ServerProcess(const std::vector<std::string>& extra_args)
    : process_([&] {
          std::vector<std::string> args{"--listen", "127.0.0.1:0", "--log-level", "warn"};
          args.insert(args.end(), extra_args.begin(), extra_args.end());
          return args;
      }()) {
    auto line = process_.io().read_line(20s);
    if (!line || line->rfind("listening ", 0) != 0) throw std::runtime_error("server did not start");
    port_ = std::stoi(line->substr(line->rfind(':') + 1));
}

LineChannel ServerProcess::connect(int receive_buffer) const {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (receive_buffer > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port_));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return LineChannel();
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return LineChannel(fd, fd);
}

}  // namespace reversi::testing
