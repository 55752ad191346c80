#pragma once
// Sequential probability ratio test on colour pairs (generalised SPRT, normal approximation):
//   s0 = score_from_elo(elo0), s1 = score_from_elo(elo1) (logistic Elo)
//   x_i = pair score (0, 1/4, 1/2, 3/4, 1), m = mean, v = population variance over the N pairs
//   LLR = N * (s1 - s0) * (2m - s0 - s1) / (2v)
//   accept H1 (A is elo1 stronger) when LLR >= log((1 - beta) / alpha),
//   accept H0 (A is at most elo0)   when LLR <= log(beta / (1 - alpha)).
// With no pairs or zero variance the LLR is 0 (no decision). Header-only; checked in tests by hand.
#include <cmath>
#include <string>

#include "tools/match/statistics.hpp"

namespace reversi::match {

struct SprtSpec {
    double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };

struct SprtState {
    double llr = 0, lower = 0, upper = 0;
    SprtDecision decision = SprtDecision::Continue;
};

[[nodiscard]] inline const char* sprt_decision_name(SprtDecision d) {
    switch (d) {
        case SprtDecision::Continue: return "continue";
        case SprtDecision::AcceptH0: return "H0";
        case SprtDecision::AcceptH1: return "H1";
    }
    return "?";
}

[[nodiscard]] inline SprtState sprt(const SprtSpec& spec, const MatchStatistics& st) {
    SprtState out;
    out.lower = std::log(spec.beta / (1.0 - spec.alpha));
    out.upper = std::log((1.0 - spec.beta) / spec.alpha);
    if (st.pairs > 0 && st.pair_variance > 0) {
        const double s0 = score_from_elo(spec.elo0);
        const double s1 = score_from_elo(spec.elo1);
        out.llr = st.pairs * (s1 - s0) * (2.0 * st.pair_mean - s0 - s1) / (2.0 * st.pair_variance);
    }
    if (out.llr >= out.upper) out.decision = SprtDecision::AcceptH1;
    else if (out.llr <= out.lower) out.decision = SprtDecision::AcceptH0;
    return out;
}

}  // namespace reversi::match
