// Progress line (see progress.hpp).
#include "tools/match/progress.hpp"

#include <cmath>
#include <cstdio>

#include "tools/match/summary.hpp"

namespace reversi::match {

std::string ProgressLine::format(int done, int total, const MatchStatistics& st, double eta_seconds) {
    char buf[256];
    const double half_width =
        std::isfinite(st.elo.high) && std::isfinite(st.elo.low) ? (st.elo.high - st.elo.low) / 2 : INFINITY;
    std::string eta = "?";
    if (eta_seconds >= 0 && std::isfinite(eta_seconds)) {
        const long long s = std::llround(eta_seconds);
        eta = s >= 3600 ? std::to_string(s / 3600) + "h" + std::to_string(s / 60 % 60) + "m"
                        : std::to_string(s / 60) + "m" + std::to_string(s % 60) + "s";
    }
    std::snprintf(buf, sizeof buf, "games %d/%d  W/D/L %d/%d/%d  score %.1f%%  Elo %s +- %s  ETA %s", done, total,
                  st.wins, st.draws, st.losses, 100.0 * st.score, format_elo(st.elo.elo).c_str(),
                  std::isfinite(half_width) ? std::to_string(std::lround(half_width)).c_str() : "inf", eta.c_str());
    return buf;
}

void ProgressLine::update(int done, int total, int done_this_run, const MatchStatistics& st) {
    if (!enabled_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const double eta = done_this_run > 0 ? elapsed / done_this_run * (total - done) : -1;
    std::fprintf(stderr, "\r%s\033[K", format(done, total, st, eta).c_str());
    std::fflush(stderr);
    shown_ = true;
}

void ProgressLine::finish() {
    if (enabled_ && shown_) {
        std::fprintf(stderr, "\n");
        std::fflush(stderr);
    }
    shown_ = false;
}

}  // namespace reversi::match
