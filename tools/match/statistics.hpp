#pragma once
// Match statistics from the point of view of the first engine (A) against the second (B).
//   score s        (wins + draws / 2) / games
//   Elo            -400 log10(1 / s - 1)   (logistic; +-infinity at s = 0 or 1)
//   95% interval   s +- 1.959964 * standard error, mapped through the Elo formula. The standard error
//                  comes from the pentanomial distribution of colour pairs (pair score 0, 1/4, 1/2, 3/4,
//                  1; population variance / pairs) when there are complete pairs, else from the
//                  trinomial distribution of single games (variance / games).
//   LOS            probability that A is stronger: 0.5 * (1 + erf((W - L) / sqrt(2 (W + L))))
//   pentanomial    counts of complete pairs by A's points in the pair: 0, 0.5, 1, 1.5, 2 (LL, LD, WL+DD, WD, WW)
//   disc margin    average final disc difference for A over games finished on the board (forfeits excluded)
// Header-only so that the tests check it against hand-computed values.
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <vector>

namespace reversi::match {

inline constexpr double kZ95 = 1.959963984540054;

// One finished game as the statistics see it.
struct GameOutcome {
    int index = 0;              // game number in the match; games 2k and 2k+1 form pair k
    double points = 0;          // A's points: 1, 0.5 or 0
    std::optional<int> margin;  // A's disc margin when the game ended on the board
};

[[nodiscard]] inline double elo_from_score(double s) {
    if (s <= 0) return -std::numeric_limits<double>::infinity();
    if (s >= 1) return std::numeric_limits<double>::infinity();
    return -400.0 * std::log10(1.0 / s - 1.0);
}

[[nodiscard]] inline double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

struct EloInterval {
    double elo = 0;
    double low = 0;
    double high = 0;
    double score_stderr = 0;  // standard error of the score (per game)
};

struct MatchStatistics {
    int games = 0, wins = 0, draws = 0, losses = 0;
    double score = 0;  // fraction, 0.5 when no games
    int margin_games = 0;
    double average_margin = 0;         // 0 when margin_games == 0
    std::array<int, 5> pentanomial{};  // index = A's points in the pair * 2
    int pairs = 0;
    double pair_mean = 0;       // mean pair score (0..1)
    double pair_variance = 0;   // population variance of the pair score
    EloInterval elo;            // interval from pairs when pairs > 0, else from games
    EloInterval elo_trinomial;  // always from single games
    double los = 0.5;
};

[[nodiscard]] inline EloInterval interval_from(double mean, double variance, int samples) {
    EloInterval e;
    e.elo = elo_from_score(mean);
    if (samples <= 0) {
        e.low = -std::numeric_limits<double>::infinity();
        e.high = std::numeric_limits<double>::infinity();
        return e;
    }
    e.score_stderr = std::sqrt(variance / samples);
    e.low = elo_from_score(mean - kZ95 * e.score_stderr);
    e.high = elo_from_score(mean + kZ95 * e.score_stderr);
    return e;
}

[[nodiscard]] inline MatchStatistics compute_statistics(const std::vector<GameOutcome>& outcomes) {
    MatchStatistics st;
    std::map<int, std::vector<double>> by_pair;
    double points = 0;
    long long margin_sum = 0;
    for (const auto& g : outcomes) {
        ++st.games;
        points += g.points;
        if (g.points == 1.0)
            ++st.wins;
        else if (g.points == 0.5)
            ++st.draws;
        else
            ++st.losses;
        if (g.margin) {
            ++st.margin_games;
            margin_sum += *g.margin;
        }
        by_pair[g.index / 2].push_back(g.points);
    }
    st.score = st.games ? points / st.games : 0.5;
    st.average_margin = st.margin_games ? static_cast<double>(margin_sum) / st.margin_games : 0.0;

    double tri_var = 0;
    if (st.games) {
        const double s = st.score;
        tri_var = (st.wins * (1 - s) * (1 - s) + st.draws * (0.5 - s) * (0.5 - s) + st.losses * s * s) / st.games;
    }
    st.elo_trinomial = interval_from(st.score, tri_var, st.games);

    std::vector<double> pair_scores;
    for (const auto& [pair, pts] : by_pair) {
        if (pts.size() != 2) continue;
        const double p = pts[0] + pts[1];
        ++st.pentanomial[static_cast<std::size_t>(std::lround(p * 2))];
        pair_scores.push_back(p / 2);
    }
    st.pairs = static_cast<int>(pair_scores.size());
    if (st.pairs) {
        double sum = 0;
        for (double x : pair_scores) sum += x;
        st.pair_mean = sum / st.pairs;
        double var = 0;
        for (double x : pair_scores) var += (x - st.pair_mean) * (x - st.pair_mean);
        st.pair_variance = var / st.pairs;
        st.elo = interval_from(st.pair_mean, st.pair_variance, st.pairs);
        st.elo.elo = elo_from_score(st.score);  // the point estimate uses every game
    } else {
        st.elo = st.elo_trinomial;
    }
    const int decisive = st.wins + st.losses;
    st.los = decisive ? 0.5 * (1.0 + std::erf((st.wins - st.losses) / std::sqrt(2.0 * decisive))) : 0.5;
    return st;
}

}  // namespace reversi::match
