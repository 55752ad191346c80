#include "protocol/transport/stdio_transport.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <mutex>

#include <spdlog/spdlog.h>

#include "protocol/session/session.hpp"
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
    auto created = session::Session::create(options.session, sink);
    if (!created) {
        spdlog::error("cannot start the session: {}", created.error().message);
        return 1;
    }
    session::Session& s = **created;
    LineSplitter splitter(options.max_line);
    bool quit = false;
    const auto on_line = [&](std::string_view line) {
        if (!quit && s.handle_line(line) == uci::Status::Quit) quit = true;
    };
    const auto on_overlong = [&] {
        sink("info string error: line longer than " + std::to_string(options.max_line) + " bytes; ignored");
        spdlog::warn("stdio: a line longer than {} bytes was discarded", options.max_line);
    };
    std::string buffer(65536, '\0');
    while (!quit) {
        pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {sfd, POLLIN, 0}};
        const int ready = ::poll(fds, sfd >= 0 ? 2 : 1, -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            spdlog::error("poll failed: errno {}", errno);
            break;
        }
        if (sfd >= 0 && (fds[1].revents & POLLIN)) {
            signalfd_siginfo info{};
            if (::read(sfd, &info, sizeof info) > 0) {
                spdlog::info("signal {} received: stopping the search and exiting", info.ssi_signo);
            }
            break;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                splitter.finish(on_line);
                break;  // end of input: as quit
            }
            splitter.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)), on_line, on_overlong);
        }
    }
    s.shutdown();
    if (sfd >= 0) ::close(sfd);
    return 0;
}

}  // namespace reversi::transport
