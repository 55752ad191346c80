#pragma once
// The bench fingerprint (as Stockfish's `bench`): a fixed set of positions searched at a fixed depth with
// one thread and a fixed hash size. The node total identifies the search: a change that alters it says so
// in its commit message ("Bench: N").
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace reversi {

struct BenchOptions {
    int depth = 0;  // 0: the default depth of the bench
    std::size_t hash_mib = 16;
};

struct BenchResult {
    std::uint64_t nodes = 0;
    std::chrono::milliseconds time{0};
    int positions = 0;
};

// `progress` (may be empty) receives one line per position, for people watching.
[[nodiscard]] BenchResult run_bench(const BenchOptions& options,
                                    const std::function<void(const std::string&)>& progress = {});

}  // namespace reversi
