#include "load_run.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>

#include "line_client.hpp"
#include "protocol/session/memory_budget.hpp"

namespace reversi::loadtest {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

struct Server {
    Child child;
    int port = 0;
    explicit Server(const std::string& engine, const std::vector<std::string>& extra)
        : child(engine, [&] {
              std::vector<std::string> a{"--listen", "127.0.0.1:0", "--log-level", "warn"};
              a.insert(a.end(), extra.begin(), extra.end());
              return a;
          }()) {
        auto line = child.io().read_line(20s);
        if (!line || line->rfind("listening ", 0) != 0) throw std::runtime_error("the server did not start");
        port = std::stoi(line->substr(line->rfind(':') + 1));
    }
};

// Positions for the go commands: openings and endgames (a transcript from the start).
const char* const kPositions[] = {
    "position startpos",
    "position startpos moves f5 d6 c3 d3 c4 f4 f6 f3 e6 e7",
    "position startpos moves f5 f6 e6 f4 e3 c5 c4 e7 b4 d6 f7 e8 c6 d7 g5 g4 c3 h3 b5 d3 f3 g6 b6 a6 h6 c7 a4 "
    "h4 f8 h5 e2 d2 b3 a3 c2 f1 f2 e1 d1 c8",
};

// The p-quantile of sorted values (0 when there are none).
double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0.0;
    return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(p * static_cast<double>(sorted.size())))];
}

// What the load test's clients counted, together.
struct LoadTally {
    std::atomic<long> gos{0}, answered{0}, sessions{0}, failures{0}, stops{0};
    std::mutex latency_mutex;
    std::vector<double> answer_ms;  // go -> bestmove, every client's
};

// One client until `until`: sessions of config.searches_per_session searches (a go of a random kind, half
// of them stopped 0-9 ms later), each session ended by quit. Stops at the first failure.
void run_client(const LoadConfig& config, int port, int i, Clock::time_point until, LoadTally& tally) {
    std::mt19937 rng(static_cast<unsigned>(i * 7919 + 1));
    std::vector<double> local;
    while (Clock::now() < until) {
        Channel c = connect_tcp(port);
        if (!c.valid()) {
            ++tally.failures;
            return;
        }
        ++tally.sessions;
        for (int s = 0; s < config.searches_per_session && Clock::now() < until; ++s) {
            c.send(kPositions[rng() % std::size(kPositions)]);
            const int kind = static_cast<int>(rng() % 4);
            const bool stop = kind == 0 || kind == 1;
            const char* go = kind == 0   ? "go infinite"
                             : kind == 1 ? "go depth 60"
                             : kind == 2 ? "go nodes 5000"
                                         : "go movetime 10";
            const auto t0 = Clock::now();
            c.send(go);
            ++tally.gos;
            if (stop) {
                std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 10));
                c.send("stop");
                ++tally.stops;
            }
            auto reply = c.wait_for("bestmove ", 30s);
            if (!reply) {
                ++tally.failures;
                spdlog::error("client {}: no bestmove after '{}' (the connection closed, or 30 s passed)", i, go);
                return;
            }
            local.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            ++tally.answered;
        }
        c.send("quit");
        c.wait_for("\x01never", 10s);  // until the server closes: its session slot is free again
    }
    std::lock_guard lock(tally.latency_mutex);
    tally.answer_ms.insert(tally.answer_ms.end(), local.begin(), local.end());
}

// Prints the report; true when every go was answered and the server shut down cleanly.
bool report_load(const LoadConfig& config, LoadTally& tally, double elapsed, long max_rss_kib, int exit_code) {
    auto& answer_ms = tally.answer_ms;
    std::sort(answer_ms.begin(), answer_ms.end());
    std::printf("load test: %d clients for %.1f s on loopback\n", config.clients, elapsed);
    std::printf("  sessions opened   %ld (%.1f per second)\n", tally.sessions.load(),
                static_cast<double>(tally.sessions) / elapsed);
    std::printf("  searches answered %ld of %ld go commands (%.1f per second), %ld with a stop\n",
                tally.answered.load(), tally.gos.load(), static_cast<double>(tally.answered) / elapsed,
                tally.stops.load());
    std::printf("  go -> bestmove    p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", percentile(answer_ms, 0.5),
                percentile(answer_ms, 0.99), answer_ms.empty() ? 0.0 : answer_ms.back());
    std::printf("  server max RSS    %.1f MiB\n", static_cast<double>(max_rss_kib) / 1024.0);
    std::printf("  failures          %ld; server exit code after SIGTERM %d\n", tally.failures.load(), exit_code);
    const bool ok = tally.failures == 0 && tally.gos == tally.answered && exit_code == 0;
    std::printf("%s\n", ok ? "OK" : "FAILED");
    return ok;
}

}  // namespace

int run_load(const LoadConfig& config) {
    // 4 MiB of hash per session (the server's own share and 2 x Hash + the per-session overhead each:
    // protocol/session/memory_budget.hpp), twice --clients sessions' worth: a client that quits and
    // reconnects at once may find its old session's memory still in the budget (the server's reaper frees
    // it after the connection has closed), and was refused when the budget held exactly --clients.
    const std::size_t budget =
        session::kServerBaseMiB + 2 * static_cast<std::size_t>(config.clients) * session::session_memory_mib(4);
    Server server(config.engine, {"--max-sessions", std::to_string(config.clients), "--hash", "4", "--max-memory",
                                  std::to_string(budget)});
    LoadTally tally;
    std::atomic<bool> done{false};
    long max_rss = server.child.rss_kib();
    const auto start = Clock::now();
    const auto until =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(config.seconds));
    std::vector<std::thread> threads;
    for (int i = 0; i < config.clients; ++i) {
        threads.emplace_back([&, i] { run_client(config, server.port, i, until, tally); });
    }
    std::thread sampler([&] {
        while (!done) {
            max_rss = std::max(max_rss, server.child.rss_kib());
            std::this_thread::sleep_for(50ms);
        }
    });
    for (auto& t : threads) t.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    done = true;
    sampler.join();
    const int exit_code = server.child.terminate(10s);
    return report_load(config, tally, elapsed, max_rss, exit_code) ? 0 : 1;
}

namespace {

struct Latencies {
    std::vector<double> us;
    void report(const char* what) {
        std::sort(us.begin(), us.end());
        if (us.empty()) return;
        std::printf("  %-34s n=%zu  p50 %7.0f us  p90 %7.0f us  p99 %7.0f us  max %7.0f us\n", what, us.size(),
                    percentile(us, 0.5), percentile(us, 0.9), percentile(us, 0.99), us.back());
    }
};

// go/stop cycles on one channel: the time from sending stop to reading bestmove.
bool measure(Channel& c, const std::string& position, const char* go, int cycles, std::mt19937& rng, Latencies& out) {
    c.send(position);
    for (int i = 0; i < cycles; ++i) {
        c.send(go);
        c.send("isready");  // the search has started when readyok arrives
        if (!c.wait_for("readyok", 10s)) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(2000 + rng() % 8000));
        const auto t0 = Clock::now();
        c.send("stop");
        if (!c.wait_for("bestmove ", 10s)) return false;
        out.us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    return true;
}

}  // namespace

int run_stop_latency(const LatencyConfig& config) {
    // An endgame with 24 empties (exact solve is long) and a midgame position (infinite search).
    const std::string endgame = std::string(kPositions[2]).substr(0, std::string(kPositions[2]).find(" h4"));
    const std::string midgame = kPositions[1];
    std::mt19937 rng(5);
    bool ok = true;
    std::printf("stop latency: 'stop' sent 2-10 ms after the search started, time until 'bestmove' arrives\n");
    {
        Child engine(config.engine, {"--log-level", "warn"});
        Latencies solve, infinite;
        ok &= measure(engine.io(), endgame, "go solve", config.cycles, rng, solve);
        ok &= measure(engine.io(), midgame, "go infinite", config.cycles, rng, infinite);
        solve.report("stdio, go solve (endgame)");
        infinite.report("stdio, go infinite (midgame)");
    }
    {
        Server server(config.engine, {});
        Channel c = connect_tcp(server.port);
        Latencies solve, infinite;
        ok &= measure(c, endgame, "go solve", config.cycles, rng, solve);
        ok &= measure(c, midgame, "go infinite", config.cycles, rng, infinite);
        solve.report("tcp, go solve (endgame)");
        infinite.report("tcp, go infinite (midgame)");
        c.send("quit");
        ok &= server.child.terminate(10s) == 0;
    }
    std::printf("%s\n", ok ? "OK" : "FAILED (a bestmove did not arrive)");
    return ok ? 0 : 1;
}

}  // namespace reversi::loadtest
