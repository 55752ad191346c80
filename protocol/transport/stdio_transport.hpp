#pragma once
// The stdin/stdout transport: one session; lines are read with poll() so that SIGINT/SIGTERM (through a
// signalfd) end the session gracefully: the search is stopped, its bestmove written, exit code 0.
// At the end of input the commands already read are carried out (a `go infinite` is stopped, since no
// `stop` can come any more), then the process exits. Lines longer than max_line bytes are discarded with
// an error line.
#include <cstddef>

#include "protocol/session/engine_context.hpp"

namespace reversi::transport {

struct StdioOptions {
    std::size_t max_line = 65536;
    session::SessionConfig session;
};

// Blocks SIGINT and SIGTERM in the calling thread (threads started later inherit it); call first in main.
void block_termination_signals();
// Runs the session until quit, end of input or a signal. Returns the process exit code.
[[nodiscard]] int run_stdio(const StdioOptions& options);

}  // namespace reversi::transport
