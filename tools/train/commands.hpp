#pragma once
// The subcommands of reversi-train (one file each).
#include "protocol/cli/command_line.hpp"

namespace reversi::train {

int run_train(const cli::ParsedArgs& args);            // train.cpp
int run_measure(const cli::ParsedArgs& args);          // measure.cpp
int run_bench(const cli::ParsedArgs& args);            // bench.cpp
int run_embed(const cli::ParsedArgs& args);            // embed.cpp
int run_probcut(const cli::ParsedArgs& args);          // probcut.cpp
int run_selfplay(const cli::ParsedArgs& args);         // selfplay.cpp (with --queue: selfplay_queue.cpp)
int run_selfplay_worker(const cli::ParsedArgs& args);  // selfplay_queue.cpp

}  // namespace reversi::train
