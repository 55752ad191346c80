#pragma once
// reversi-match's command line: the match, tournament or coordinator of a distributed match (--queue).
// Parsed here for the binary and for the workers of a distributed match, which read the coordinator's
// arguments from the queue and build the same configuration from them.
#include <optional>
#include <string>
#include <vector>

#include "tools/match/match_runner.hpp"

namespace reversi::match {

struct MatchCommand {
    MatchConfig config;
    std::string queue;  // --queue URL; empty: a local match
    std::string log_level = "warn";
    std::optional<int> exit_code;  // set: exit with it (--help, --version, or an error already printed)
};

// argv[0] is the program's name. Errors are printed on stderr (exit code 2).
[[nodiscard]] MatchCommand parse_match_command(const std::vector<std::string>& argv);

}  // namespace reversi::match
