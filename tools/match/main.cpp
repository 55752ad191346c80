// reversi-match: engine-vs-engine matches with paired openings, fault handling, resumable results and
// honest statistics, on one machine or distributed over Redis Streams (`--queue`, `worker`). See
// docs/match.md and docs/scale.md.
#include <csignal>
#include <string>
#include <vector>

#include "protocol/cli/logging.hpp"
#include "tools/match/distributed.hpp"
#include "tools/match/match_args.hpp"
#include "tools/match/match_runner.hpp"

using namespace reversi;
using namespace reversi::match;

int main(int argc, char** argv) {
    std::signal(SIGPIPE, SIG_IGN);
    const std::vector<std::string> args(argv, argv + argc);
    if (args.size() > 1 && args[1] == "worker") return run_worker_command(args);
    auto command = parse_match_command(args);
    if (command.exit_code) return *command.exit_code;
    cli::init_logging("match", command.log_level);
    const auto& config = command.config;
    if (config.sprt && config.games < 2 * kSprtMinPairs) {
        std::fprintf(stderr,
                     "reversi-match: warning: --sprt decides from colour pair %d on; %d games can never reach it\n",
                     kSprtMinPairs, config.games);
    }
    if (!command.queue.empty()) return run_coordinator(command.config, command.queue, args);
    return run_match(command.config);
}
