// Engine processes (fork/exec with pipes) and TCP engines (POSIX sockets), read with poll().
#include "tools/match/engine_connection.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "engine/core/unique_fd.hpp"

namespace reversi::match {

namespace {

std::string errno_text() { return std::strerror(errno); }

bool write_all(int fd, const char* data, std::size_t size, bool is_socket) {
    while (size > 0) {
        const ssize_t n = is_socket ? ::send(fd, data, size, MSG_NOSIGNAL) : ::write(fd, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// Connects `fd` to one address by `deadline`, polling every 50 ms for the abort flag (a host that drops
// the attempt, or a server whose accept queue is full, would hold a blocking connect for about two
// minutes). Empty, or why not.
std::string connect_by(int fd, const addrinfo& a, SteadyClock::time_point deadline, const std::atomic<bool>* abort) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) return errno_text();
    if (::connect(fd, a.ai_addr, a.ai_addrlen) != 0) {
        if (errno != EINPROGRESS) return errno_text();
        for (;;) {
            if (abort != nullptr && abort->load()) return "interrupted";
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
            if (left.count() <= 0) return "no connection within the handshake timeout";
            pollfd p{fd, POLLOUT, 0};
            const int n = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 50)));
            if (n < 0 && errno != EINTR) return errno_text();
            if (n <= 0) continue;
            int error = 0;
            socklen_t size = sizeof error;
            if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0) return errno_text();
            if (error != 0) return std::strerror(error);
            break;
        }
    }
    if (::fcntl(fd, F_SETFL, flags) != 0) return errno_text();  // the writes block, the reads poll
    return {};
}

Expected<int> connect_tcp(const std::string& host, int port, SteadyClock::time_point deadline,
                          const std::atomic<bool>* abort) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
        return make_error("cannot resolve " + host + ": " + ::gai_strerror(rc));
    }
    std::string last_error = "no address";
    int fd = -1;
    int left = 0;
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) ++left;
    for (addrinfo* a = found; a != nullptr; a = a->ai_next, --left) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            last_error = errno_text();
            continue;
        }
        // Each address its share of the time left: one that drops the attempt leaves the others theirs.
        const auto now = SteadyClock::now();
        const auto share = deadline == SteadyClock::time_point::max() ? deadline : now + (deadline - now) / left;
        last_error = connect_by(fd, *a, share, abort);
        if (last_error.empty()) break;
        ::close(fd);
        fd = -1;
    }
    ::freeaddrinfo(found);
    if (fd < 0) return make_error("cannot connect to " + host + ":" + service + ": " + last_error);
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

struct Pipe {
    UniqueFd read;
    UniqueFd write;
};

Expected<Pipe> make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return make_error("pipe: " + errno_text());
    return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// What the child process needs after fork, prepared before it (the child makes only async-signal-safe
// calls until exec).
struct ChildSetup {
    std::vector<char*> argv;  // null-terminated
    const char* dir = nullptr;
    pid_t parent = 0;
    int in = -1;      // becomes its stdin
    int out = -1;     // its stdout
    int err = -1;     // its stderr
    int status = -1;  // receives errno when chdir or exec fails (closed by a successful exec)
};

[[noreturn]] void run_child(const ChildSetup& c) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != c.parent) ::_exit(127);
    ::dup2(c.in, 0);
    ::dup2(c.out, 1);
    ::dup2(c.err, 2);
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;  // the runner blocks SIGINT/SIGTERM in its threads; the engine starts clean
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // A failed chdir reports its errno negated, a failed exec as it is.
    if (c.dir != nullptr && ::chdir(c.dir) != 0) {
        const int e = -errno;
        (void)!::write(c.status, &e, sizeof e);
        ::_exit(127);
    }
    ::execvp(c.argv[0], c.argv.data());
    const int e = errno;
    (void)!::write(c.status, &e, sizeof e);
    ::_exit(127);
}

// The errno the child reported before exiting (negated: chdir failed; else exec failed), or 0 once exec
// closed the pipe.
int child_start_errno(int status_fd) {
    int child_errno = 0;
    ssize_t n;
    do {
        n = ::read(status_fd, &child_errno, sizeof child_errno);
    } while (n < 0 && errno == EINTR);
    return n == static_cast<ssize_t>(sizeof child_errno) ? child_errno : 0;
}

}  // namespace

Expected<std::unique_ptr<EngineConnection>> EngineConnection::open(const EngineEndpoint& endpoint,
                                                                   SteadyClock::time_point connect_deadline,
                                                                   const std::atomic<bool>* abort) {
    std::unique_ptr<EngineConnection> conn(new EngineConnection());
    if (!endpoint.transcript_file.empty()) {
        conn->transcript_fd_ =
            ::open(endpoint.transcript_file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (conn->transcript_fd_ < 0) {
            return make_error("cannot open the transcript " + endpoint.transcript_file + ": " + errno_text());
        }
    }
    if (!endpoint.tcp_host.empty()) {
        auto fd = connect_tcp(endpoint.tcp_host, endpoint.tcp_port, connect_deadline, abort);
        if (!fd) return fd.error();
        conn->read_fd_ = conn->write_fd_ = *fd;
        conn->is_tcp_ = true;
        return conn;
    }
    if (endpoint.command.empty()) return make_error("empty engine command");
    if (auto started = conn->start_process(endpoint); !started) return started.error();
    return conn;
}

Expected<bool> EngineConnection::start_process(const EngineEndpoint& endpoint) {
    auto to_child = make_pipe();
    if (!to_child) return to_child.error();
    auto from_child = make_pipe();
    if (!from_child) return from_child.error();
    const std::string err_path = endpoint.stderr_file.empty() ? "/dev/null" : endpoint.stderr_file;
    const UniqueFd err(::open(err_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
    if (err.get() < 0) return make_error("cannot open " + err_path + ": " + errno_text());
    auto exec_status = make_pipe();  // tells the parent whether exec failed
    if (!exec_status) return exec_status.error();
    ChildSetup setup;
    for (const auto& a : endpoint.command) setup.argv.push_back(const_cast<char*>(a.c_str()));
    setup.argv.push_back(nullptr);
    setup.dir = endpoint.working_dir.empty() ? nullptr : endpoint.working_dir.c_str();
    setup.parent = ::getpid();
    setup.in = to_child->read.get();
    setup.out = from_child->write.get();
    setup.err = err.get();
    setup.status = exec_status->write.get();

    const pid_t pid = ::fork();
    if (pid < 0) return make_error("fork: " + errno_text());
    if (pid == 0) run_child(setup);
    ::setpgid(pid, pid);         // also from the parent, so that the group exists before any kill
    exec_status->write.reset();  // the child's copy is then the only one: exec closes it, or it reports
    const int child_errno = child_start_errno(exec_status->read.get());
    pid_ = pid;
    read_fd_ = from_child->read.release();
    write_fd_ = to_child->write.release();
    if (child_errno != 0) {
        close(std::chrono::milliseconds(0));
        if (child_errno < 0)
            return make_error("cannot enter the working directory '" + endpoint.working_dir +
                              "': " + std::strerror(-child_errno));
        return make_error("cannot start '" + endpoint.command[0] + "': " + std::strerror(child_errno));
    }
    return true;
}

EngineConnection::~EngineConnection() { close(); }

void EngineConnection::remember(const std::string& prefix, const std::string& line) {
    if (transcript_fd_ >= 0) {  // one write per line: lines of engines sharing the file stay whole (O_APPEND)
        const std::string entry = prefix + line + "\n";
        (void)write_all(transcript_fd_, entry.data(), entry.size(), false);
    }
    if (traffic_.size() >= 12) traffic_.erase(traffic_.begin());
    traffic_.push_back(prefix + (line.size() > 200 ? line.substr(0, 200) + "..." : line));
}

std::string EngineConnection::recent_traffic() const {
    std::string out;
    for (const auto& t : traffic_) out += t + "\n";
    return out;
}

std::string EngineConnection::last_received() const {
    for (auto it = traffic_.rbegin(); it != traffic_.rend(); ++it) {
        if (it->starts_with("< ")) return it->substr(2);
    }
    return {};
}

bool EngineConnection::send_line(const std::string& line) {
    if (write_fd_ < 0) return false;
    remember("> ", line);
    const std::string data = line + "\n";
    return write_all(write_fd_, data.data(), data.size(), is_tcp_);
}

ReadResult EngineConnection::read_line(SteadyClock::time_point deadline) {
    for (;;) {
        if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            remember("< ", line);
            return {ReadStatus::Line, std::move(line)};
        }
        if (buffer_.size() > kMaxLineLength) {
            buffer_.clear();
            return {ReadStatus::TooLong, {}};
        }
        if (read_fd_ < 0) return {ReadStatus::Closed, {}};
        if (abort_ != nullptr && abort_->load()) return {ReadStatus::Aborted, {}};
        const auto now = SteadyClock::now();
        if (now >= deadline) return {ReadStatus::Timeout, {}};
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
        pollfd p{read_fd_, POLLIN, 0};
        const bool slices = abort_ != nullptr || pid_ > 0;
        const int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(wait, slices ? 50 : 1 << 30)));
        if (rc < 0) {
            if (errno == EINTR) continue;
            return {ReadStatus::Closed, {}};
        }
        if (rc == 0) {
            if (!process_ended()) continue;  // loop re-checks the deadline
            // The engine's process has ended while a child of its own holds its output open: a crash now,
            // not a hang at the deadline (left waitable for close()), once what it wrote last is read.
            pollfd left{read_fd_, POLLIN, 0};
            if (::poll(&left, 1, 0) <= 0) return {ReadStatus::Closed, {}};
        }
        char chunk[4096];
        const ssize_t n = ::read(read_fd_, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return {ReadStatus::Closed, {}};
        }
        if (n == 0) return {ReadStatus::Closed, {}};
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

bool EngineConnection::process_ended() const {
    if (pid_ <= 0) return false;
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_;
}

void EngineConnection::close(std::chrono::milliseconds grace) {
    if (write_fd_ >= 0 && write_fd_ != read_fd_) ::close(write_fd_);
    if (read_fd_ >= 0) ::close(read_fd_);
    if (transcript_fd_ >= 0) ::close(transcript_fd_);
    read_fd_ = write_fd_ = transcript_fd_ = -1;
    if (pid_ > 0) {
        const auto until = SteadyClock::now() + grace;
        int status = 0;
        pid_t done = ::waitpid(pid_, &status, WNOHANG);
        while (done == 0 && SteadyClock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            done = ::waitpid(pid_, &status, WNOHANG);
        }
        ::kill(-pid_, SIGKILL);  // the whole group: scripts and their children
        if (done == 0) ::waitpid(pid_, &status, 0);
        pid_ = -1;
    }
}

}  // namespace reversi::match
