#pragma once
// The live progress line on stderr ("\r" rewritten after each game), only when stderr is a terminal:
//   games 12/200  W/D/L 5/2/5  score 50.0%  Elo +0.0 +- 120.3  ETA 3m12s
#include <chrono>
#include <string>

#include "tools/match/statistics.hpp"

namespace reversi::match {

class ProgressLine {
public:
    // enabled: show it (the caller passes isatty(2) unless told otherwise)
    explicit ProgressLine(bool enabled) : enabled_(enabled), started_(std::chrono::steady_clock::now()) {}
    // done_this_run: games finished by this run (for the ETA); done: all recorded games.
    void update(int done, int total, int done_this_run, const MatchStatistics& st);
    void finish();

    [[nodiscard]] static std::string format(int done, int total, const MatchStatistics& st, double eta_seconds);

private:
    bool enabled_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point started_;
};

}  // namespace reversi::match
