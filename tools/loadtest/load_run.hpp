#pragma once
// The two benchmarks of reversi-loadtest: the TCP load test and the stop-latency measurement.
#include <string>

namespace reversi::loadtest {

struct LoadConfig {
    std::string engine;
    int clients = 64;
    double seconds = 10;
    int searches_per_session = 20;  // a client reconnects (a new session) after this many searches
};

// Returns the process exit code: 0 when every go was answered and the server shut down cleanly.
int run_load(const LoadConfig& config);

struct LatencyConfig {
    std::string engine;
    int cycles = 300;  // go/stop cycles per transport and position kind
};

int run_stop_latency(const LatencyConfig& config);

}  // namespace reversi::loadtest
