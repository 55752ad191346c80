// reversi-loadtest: benchmarks of the engine server. By default a load test over loopback TCP (many
// concurrent clients running short searches and random stops); with --stop-latency the p50/p99 time
// from `stop` to `bestmove` over many go/stop cycles, on stdio and on TCP.
#include <signal.h>

#include <spdlog/spdlog.h>

#include "line_client.hpp"
#include "load_run.hpp"
#include "protocol/cli/command_line.hpp"
#include "protocol/cli/logging.hpp"

using namespace reversi;

int main(int argc, char** argv) {
    cli::ProgramSpec spec{
        "reversi-loadtest",
        "reversi-loadtest [options]",
        "Load test of reversi-engine --listen on loopback: --clients concurrent clients for --seconds, each\n"
        "running short searches (go nodes/movetime) and searches ended by a random stop, reconnecting now and\n"
        "then. Reports sessions and searches per second, go->bestmove times and the server's memory; fails when\n"
        "a go is not answered or the server does not exit cleanly on SIGTERM.\n"
        "With --stop-latency: go/stop cycles on stdio and TCP, p50/p90/p99 of stop->bestmove.",
        {{"engine", true, "path of reversi-engine (default: ../protocol/reversi-engine next to this tool)"},
         {"clients", true, "concurrent clients (default 64)"},
         {"seconds", true, "duration of the load test (default 10)"},
         {"stop-latency", false, "measure the stop latency instead"},
         {"cycles", true, "go/stop cycles per transport and position (default 300)"},
         {"log-level", true, "trace, debug, info, warn, error or off (default info)"}},
        ""};
    spec.takes_positional = false;
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    cli::init_logging("loadtest", parsed.args.get("log-level", "info"));
    signal(SIGPIPE, SIG_IGN);
    const std::string engine = parsed.args.get("engine", loadtest::default_engine_path());
    try {
        if (parsed.args.has("stop-latency")) {
            auto cycles = parsed.args.get_int("cycles", 300, 1, 1000000);
            if (!cycles) {
                spdlog::error("{}", cycles.error().message);
                return 2;
            }
            return loadtest::run_stop_latency({engine, static_cast<int>(*cycles)});
        }
        auto clients = parsed.args.get_int("clients", 64, 1, 10000);
        auto seconds = parsed.args.get_int("seconds", 10, 1, 86400);
        if (!clients || !seconds) {
            spdlog::error("{}", !clients ? clients.error().message : seconds.error().message);
            return 2;
        }
        loadtest::LoadConfig config;
        config.engine = engine;
        config.clients = static_cast<int>(*clients);
        config.seconds = static_cast<double>(*seconds);
        return loadtest::run_load(config);
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        return 1;
    }
}
