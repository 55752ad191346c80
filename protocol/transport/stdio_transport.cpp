#include "protocol/transport/stdio_transport.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <spdlog/spdlog.h>

#include "engine/core/unique_fd.hpp"
#include "protocol/dispatch/session.hpp"
#include "protocol/transport/line_splitter.hpp"

namespace reversi::transport {

namespace {

sigset_t termination_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

// Lines to stdout, whole, from any thread.
session::LineSink stdout_sink() {
    auto out_mutex = std::make_shared<std::mutex>();
    return [out_mutex](std::string line) {
        line += '\n';
        std::lock_guard lock(*out_mutex);
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
    };
}

// A byte into the wake pipe `fd` (the pipe is non-blocking: a full pipe already wakes the loop).
session::JobDoneNotifier job_done_notifier(int fd) {
    return [fd] {
        const char byte = 1;
        [[maybe_unused]] const auto n = ::write(fd, &byte, 1);
    };
}

// The session's loop: poll the wake pipe, stdin and the signalfd, and hand each what it brings.
class StdioLoop {
public:
    // `signals`: -1 when there is no signalfd.
    StdioLoop(std::size_t max_line, dispatch::Session& session, int wake, int signals)
        : session_(session), splitter_(max_line), max_line_(max_line), wake_(wake), signals_(signals) {}

    // Until quit or a signal; after the end of input, until the waiting commands and the job are done.
    void run() {
        while (!quit_ && (input_open_ || session_.drain_step())) {
            pollfd fds[3] = {{wake_, POLLIN, 0}, {input_open_ ? STDIN_FILENO : -1, POLLIN, 0}, {signals_, POLLIN, 0}};
            if (::poll(fds, 3, -1) < 0) {
                if (errno == EINTR) continue;
                spdlog::error("poll failed: errno {}", errno);
                return;
            }
            if (signals_ >= 0 && (fds[2].revents & POLLIN)) {
                log_signal();
                return;
            }
            if (fds[0].revents & POLLIN) job_done();
            if (input_open_ && !quit_ && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) read_input();
        }
    }

private:
    void log_signal() {
        signalfd_siginfo info{};
        if (::read(signals_, &info, sizeof info) > 0) {
            spdlog::info("signal {} received: stopping the search and exiting", info.ssi_signo);
        }
    }

    // The pipe emptied, and the session resumes its waiting commands.
    void job_done() {
        char drain[64];
        while (::read(wake_, drain, sizeof drain) > 0) {
        }
        if (session_.resume() == session::Status::Quit) quit_ = true;
    }

    // What stdin has, line by line; at its end the last unterminated line, then no more input.
    void read_input() {
        const auto on_line = [this](std::string_view line) {
            if (!quit_ && session_.handle_line(line) == session::Status::Quit) quit_ = true;
        };
        const ssize_t n = ::read(STDIN_FILENO, buffer_.data(), buffer_.size());
        if (n < 0 && errno == EINTR) return;
        if (n <= 0) {
            splitter_.finish(on_line);
            input_open_ = false;  // end of input: finish what was asked, then exit
            return;
        }
        const auto on_overlong = [this] {
            // In the session's protocol (NBoard: a status error line, which a GUI shows).
            session_.send_error("line longer than " + std::to_string(max_line_) + " bytes; ignored");
            spdlog::warn("stdio: a line longer than {} bytes was discarded", max_line_);
        };
        splitter_.feed(std::string_view(buffer_.data(), static_cast<std::size_t>(n)), on_line, on_overlong);
    }

    dispatch::Session& session_;
    LineSplitter splitter_;
    std::size_t max_line_;
    int wake_;
    int signals_;
    std::string buffer_ = std::string(65536, '\0');
    bool input_open_ = true;
    bool quit_ = false;
};

}  // namespace

void block_termination_signals() {
    const sigset_t set = termination_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    signal(SIGPIPE, SIG_IGN);
}

int run_stdio(const StdioOptions& options) {
    const sigset_t set = termination_signals();
    UniqueFd signals(signalfd(-1, &set, SFD_CLOEXEC));
    if (signals.get() < 0) spdlog::warn("signalfd failed ({}); SIGINT/SIGTERM end the process abruptly", errno);
    // Job-done notifications wake the loop through a pipe (written on the job's thread).
    int wake[2];
    if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        spdlog::error("pipe failed: errno {}", errno);
        return 1;
    }
    UniqueFd wake_read(wake[0]);
    UniqueFd wake_write(wake[1]);
    auto created = dispatch::Session::create(options.session, stdout_sink(), job_done_notifier(wake_write.get()));
    if (!created) {
        spdlog::error("cannot start the session: {}", created.error().message);
        return 1;
    }
    StdioLoop loop(options.max_line, **created, wake_read.get(), signals.get());
    loop.run();
    (*created)->shutdown();  // before the pipe closes: the job's thread may still write to it
    return 0;
}

}  // namespace reversi::transport
