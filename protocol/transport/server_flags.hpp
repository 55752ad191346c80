#pragma once
// The reversi-engine flags for the TCP server's security limits (docs/security.md): --data-dir,
// --max-threads, --max-search-time, --reclaim-idle; the web board's --http and --openings (docs/web.md);
// and --test-hooks (tests only, stdio or TCP).
#include <vector>

#include "engine/core/expected.hpp"
#include "protocol/cli/command_line.hpp"
#include "protocol/transport/tcp_server.hpp"

namespace reversi::transport {

// Appends the flags' descriptions for --help.
void append_server_flags(std::vector<cli::OptionSpec>& options);
// --test-hooks, for both transports.
void apply_session_flags(const cli::ParsedArgs& args, session::SessionConfig& config);
// The server's limits from the flags; an error names the bad flag (or a --data-dir that is no directory).
[[nodiscard]] Expected<bool> apply_server_flags(const cli::ParsedArgs& args, TcpOptions& options);

}  // namespace reversi::transport
