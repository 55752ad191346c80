// reversi-stress: the clock stress benchmark (not a unit test). Plays clock games between two instances
// of reversi-engine with CPU hogs running beside them and reports time forfeits and the worst overstep.
#include <signal.h>

#include <spdlog/spdlog.h>

#include <cstdio>

#include "clock_games.hpp"
#include "protocol/cli/command_line.hpp"
#include "protocol/cli/logging.hpp"
#include "tools/loadtest/line_client.hpp"

using namespace reversi;

namespace {

// "3+0.03" (seconds) -> base and increment in ms.
bool parse_control(const std::string& text, stress::StressConfig& config) {
    double base = 0, inc = 0;
    char plus = 0, extra = 0;
    const int n = std::sscanf(text.c_str(), "%lf%c%lf%c", &base, &plus, &inc, &extra);
    if (!((n == 1) || (n == 3 && plus == '+')) || !(base > 0) || base > 1e5 || !(inc >= 0) || inc > 1e4) return false;
    config.base = stress::Millis(static_cast<long long>(base * 1000 + 0.5));
    config.increment = stress::Millis(static_cast<long long>(inc * 1000 + 0.5));
    return true;
}

void print(const stress::StressConfig& c, const stress::StressReport& r) {
    std::printf("clock stress: %d games at %.3f+%.3f s, %d CPU hogs, MoveOverhead %s, engine %s\n", r.games,
                static_cast<double>(c.base.count()) / 1000, static_cast<double>(c.increment.count()) / 1000, c.hogs,
                c.move_overhead ? std::to_string(*c.move_overhead).c_str() : "default", c.engine.c_str());
    std::printf("moves %lld, time forfeits %d, other failures %d\n", static_cast<long long>(r.moves), r.forfeits,
                r.errors);
    std::printf("worst overstep %lld ms (time used minus the clock the engine had; <= 0: never over)\n",
                static_cast<long long>(r.worst_overstep_ms));
    std::printf("least clock left after a move %lld ms, per-game least clock left %.0f ms on average, %.0f s\n",
                static_cast<long long>(r.least_left_ms), r.mean_least_left_ms, r.seconds);
}

cli::ProgramSpec program_spec() {
    cli::ProgramSpec spec{
        "reversi-stress",
        "reversi-stress [options]",
        "Clock stress benchmark: --games clock games between two reversi-engine instances (UCI over pipes)\n"
        "while --hogs busy threads compete for the cores. Each move is charged as a GUI charges it, from\n"
        "writing go to reading bestmove, with no grace: a move that takes longer than the clock it had is a\n"
        "time forfeit. Each random opening (--opening-plies, seeded) is played twice with colours swapped.\n"
        "Prints games, time forfeits and the worst overstep; exits 1 when a game was forfeited or failed.",
        {{"engine", true, "path of reversi-engine (default: ../protocol/reversi-engine next to this tool)"},
         {"games", true, "games to play (default 1000)"},
         {"tc", true, "SECONDS[+INCREMENT] per side (default 3+0.03)"},
         {"hogs", true, "busy threads beside the games (default 2)"},
         {"opening-plies", true, "random legal plies before the clocks start (default 4)"},
         {"seed", true, "seed of the openings (default 1)"},
         {"move-overhead", true, "MS: setoption MoveOverhead for both engines (default: the engine's own)"},
         {"log-level", true, "trace, debug, info, warn, error or off (default info)"}},
        "Example (the documented 1,000-game run): nice reversi-stress --games 1000 --tc 3+0.03 --hogs 2"};
    spec.takes_positional = false;
    return spec;
}

// The games' settings from the options; false after logging the error.
bool read_config(const cli::ParsedArgs& args, stress::StressConfig& config) {
    config.engine = args.get("engine", loadtest::default_engine_path());
    auto games = args.get_int("games", 1000, 1, 10'000'000);
    auto hogs = args.get_int("hogs", 2, 0, 256);
    auto plies = args.get_int("opening-plies", 4, 0, 40);
    auto seed = args.get_int("seed", 1, 0, 1LL << 62);
    for (const auto* v : {&games, &hogs, &plies, &seed}) {
        if (!*v) {
            spdlog::error("{}", v->error().message);
            return false;
        }
    }
    if (!parse_control(args.get("tc", "3+0.03"), config)) {
        spdlog::error("--tc: expected SECONDS[+INCREMENT], e.g. 3+0.03");
        return false;
    }
    if (args.has("move-overhead")) {
        auto overhead = args.get_int("move-overhead", 30, 0, 60000);
        if (!overhead) {
            spdlog::error("{}", overhead.error().message);
            return false;
        }
        config.move_overhead = static_cast<int>(*overhead);
    }
    config.games = static_cast<int>(*games);
    config.hogs = static_cast<int>(*hogs);
    config.opening_plies = static_cast<int>(*plies);
    config.seed = static_cast<std::uint64_t>(*seed);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec = program_spec();
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    cli::init_logging("stress", args.get("log-level", "info"));
    signal(SIGPIPE, SIG_IGN);
    stress::StressConfig config;
    if (!read_config(args, config)) return 2;
    try {
        const auto report = stress::run_clock_games(config);
        print(config, report);
        return report.forfeits == 0 && report.errors == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        return 1;
    }
}
