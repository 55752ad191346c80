#pragma once
// A match played by any number of machines through Redis Streams (docs/scale.md). The match NAME of
// `--queue redis://HOST:PORT/NAME` keeps these keys:
//   NAME:args         the coordinator's command line (tokens joined by \x1f): a worker builds the same
//                     MatchConfig from it (its engines, openings and options must exist on the worker too)
//   NAME:pairs        a stream of work items, one colour pair each ("games" = "G1,G2", the games' numbers
//                     in the match), read through the consumer group "workers"
//   NAME:results      a stream of finished games ("game", "log": the results-log line, "ggf": the GGF
//                     line, "worker")
//   NAME:fingerprint  the match's fingerprint, written last: a queue with it holds every pair
//   NAME:stop         set when the match is over (every game recorded, or the SPRT decided): workers take
//                     no more pairs and exit
// A worker acknowledges a pair after both games' results are on the results stream. A pair it holds is
// kept alive by a heartbeat (XCLAIM of its own entry); a pair idle longer than --reclaim-after (its worker
// died) is claimed by another worker (XAUTOCLAIM) and played again. The coordinator records the first
// result of each game number and ignores repeats, so a pair played twice counts once; its results log
// and GGF file are those of a local match, and it resumes (--resume) by reading the results stream again
// from its start.
#include <string>
#include <vector>

#include "tools/match/match_runner.hpp"

namespace reversi::match {

// The coordinator: `argv` is reversi-match's whole command line (for the workers). Returns the exit code.
[[nodiscard]] int run_coordinator(const MatchConfig& config, const std::string& queue_url,
                                  const std::vector<std::string>& argv);

// `reversi-match worker ...` (argv[1] == "worker"). Returns the exit code.
[[nodiscard]] int run_worker_command(const std::vector<std::string>& argv);

}  // namespace reversi::match
