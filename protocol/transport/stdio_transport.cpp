#include "protocol/transport/stdio_transport.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <mutex>

#include <spdlog/spdlog.h>

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

}  // namespace

void block_termination_signals() {
    const sigset_t set = termination_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    signal(SIGPIPE, SIG_IGN);
}

int run_stdio(const StdioOptions& options) {
    const sigset_t set = termination_signals();
    const int sfd = signalfd(-1, &set, SFD_CLOEXEC);
    if (sfd < 0) spdlog::warn("signalfd failed ({}); SIGINT/SIGTERM end the process abruptly", errno);

    auto out_mutex = std::make_shared<std::mutex>();
    session::LineSink sink = [out_mutex](std::string line) {
        line += '\n';
        std::lock_guard lock(*out_mutex);
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
    };
    // Job-done notifications wake the loop through a pipe (written on the job's thread).
    int wake[2];
    if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        spdlog::error("pipe failed: errno {}", errno);
        return 1;
    }
    const int wake_write = wake[1];
    session::JobDoneNotifier job_done = [wake_write] {
        const char byte = 1;
        [[maybe_unused]] const auto n = ::write(wake_write, &byte, 1);
    };
    auto created = dispatch::Session::create(options.session, sink, job_done);
    if (!created) {
        spdlog::error("cannot start the session: {}", created.error().message);
        return 1;
    }
    dispatch::Session& s = **created;
    LineSplitter splitter(options.max_line);
    bool quit = false;
    const auto on_line = [&](std::string_view line) {
        if (!quit && s.handle_line(line) == session::Status::Quit) quit = true;
    };
    const auto on_overlong = [&] {
        sink("info string error: line longer than " + std::to_string(options.max_line) + " bytes; ignored");
        spdlog::warn("stdio: a line longer than {} bytes was discarded", options.max_line);
    };
    std::string buffer(65536, '\0');
    bool input_open = true;
    // Until quit or a signal; after the end of input, until the waiting commands and the job are done.
    while (!quit && (input_open || s.drain_step())) {
        pollfd fds[3] = {{wake[0], POLLIN, 0}, {input_open ? STDIN_FILENO : -1, POLLIN, 0}, {sfd, POLLIN, 0}};
        const int ready = ::poll(fds, 3, -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            spdlog::error("poll failed: errno {}", errno);
            break;
        }
        if (sfd >= 0 && (fds[2].revents & POLLIN)) {
            signalfd_siginfo info{};
            if (::read(sfd, &info, sizeof info) > 0) {
                spdlog::info("signal {} received: stopping the search and exiting", info.ssi_signo);
            }
            break;
        }
        if (fds[0].revents & POLLIN) {
            char drain[64];
            while (::read(wake[0], drain, sizeof drain) > 0) {
            }
            if (s.resume() == session::Status::Quit) quit = true;
        }
        if (input_open && !quit && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                splitter.finish(on_line);
                input_open = false;  // end of input: finish what was asked, then exit
                continue;
            }
            splitter.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)), on_line, on_overlong);
        }
    }
    s.shutdown();
    ::close(wake[0]);
    ::close(wake[1]);
    if (sfd >= 0) ::close(sfd);
    return 0;
}

}  // namespace reversi::transport
