#pragma once
// spdlog set-up for every binary: logs go to stderr (stdout belongs to the protocol) or to a file.
#include <string>

namespace reversi::cli {

// The engine's default level: "error" on stdin/stdout, where a GUI may read stderr as protocol (NBoard
// merges it into stdout), so that nothing but protocol reaches it in normal operation; "info" for the TCP
// server, whose clients never see its stderr.
[[nodiscard]] const char* default_engine_log_level(bool tcp_server) noexcept;

// level: trace, debug, info, warn, error, off. An empty file means stderr. Returns false (and logs to
// stderr) when the file cannot be opened or the level is unknown.
bool init_logging(const std::string& program, const std::string& level = "info", const std::string& file = "");

}  // namespace reversi::cli
