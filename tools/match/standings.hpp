#pragma once
// The standings of a tournament: points, games and score of each engine over all its pairings, and an
// Elo estimate relative to the field.
// Method: Bradley-Terry (logistic Elo) maximum likelihood over the pairwise results, a draw counting as
// half a win for each side. The ratings r_i solve, for every engine i,
//     sum over opponents j of n_ij * E(r_i - r_j) = points_i,   E(d) = 1 / (1 + 10^(-d/400)),
// found by the minorization-maximization iteration gamma_i <- points_i / sum_j n_ij / (gamma_i + gamma_j)
// (gamma = 10^(r/400)), then shifted so that the mean rating is 0. An engine with no points (or all of
// them) has no finite estimate: it is reported as -inf (+inf) and the others are rated on the games
// among themselves. With two engines the difference is exactly the match Elo of their score.
// Header-only so that the tests check it against hand-computed values.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tools/match/statistics.hpp"

namespace reversi::match {

inline constexpr const char* kStandingsMethod =
    "Bradley-Terry maximum likelihood over all games (draw = half a win), mean of finite ratings = 0";

// Points of `first` against `second` in one pairing (games between them only).
struct PairResult {
    int first = 0;
    int second = 1;
    int games = 0;
    double first_points = 0;
};

struct Standing {
    int engine = 0;
    double points = 0;
    int games = 0;
    int wins = 0, draws = 0, losses = 0;
    double score = 0.5;  // points / games, 0.5 when no games
    double elo = 0;      // relative to the field (see the method above)
};

namespace standings_detail {

// Points and games of each engine against the engines still `finite`.
inline void points_among(const std::vector<bool>& finite, const std::vector<PairResult>& results,
                         std::vector<double>& pts, std::vector<double>& games) {
    pts.assign(finite.size(), 0.0);
    games.assign(finite.size(), 0.0);
    for (const auto& r : results) {
        const auto a = static_cast<std::size_t>(r.first), b = static_cast<std::size_t>(r.second);
        if (!finite[a] || !finite[b]) continue;
        pts[a] += r.first_points;
        pts[b] += r.games - r.first_points;
        games[a] += r.games;
        games[b] += r.games;
    }
}

// Drops, one round at a time, the engines that score 0% or 100% against the remaining finite ones (their
// Elo -inf or +inf).
inline void drop_perfect_scores(const std::vector<PairResult>& results, std::vector<bool>& finite,
                                std::vector<double>& elo) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::vector<double> pts, games;
    for (bool changed = true; changed;) {
        changed = false;
        points_among(finite, results, pts, games);
        for (std::size_t i = 0; i < finite.size(); ++i) {
            if (!finite[i] || games[i] == 0) continue;
            if (pts[i] <= 0 || pts[i] >= games[i]) {
                finite[i] = false;
                elo[i] = pts[i] <= 0 ? -kInf : kInf;
                changed = true;
            }
        }
    }
}

// The Bradley-Terry strengths of the finite engines (minorisation-maximisation until they settle).
inline std::vector<double> fit_strengths(const std::vector<PairResult>& results, const std::vector<bool>& finite) {
    std::vector<double> gamma(finite.size(), 1.0), pts, games;
    points_among(finite, results, pts, games);
    for (int iteration = 0; iteration < 10000; ++iteration) {
        double change = 0;
        for (std::size_t i = 0; i < finite.size(); ++i) {
            if (!finite[i] || pts[i] <= 0) continue;
            double denominator = 0;
            for (const auto& r : results) {
                const auto a = static_cast<std::size_t>(r.first), b = static_cast<std::size_t>(r.second);
                if (!finite[a] || !finite[b] || (a != i && b != i)) continue;
                const std::size_t j = a == i ? b : a;
                denominator += r.games / (gamma[i] + gamma[j]);
            }
            const double next = pts[i] / denominator;
            change = std::max(change, std::abs(std::log(next / gamma[i])));
            gamma[i] = next;
        }
        if (change < 1e-13) break;
    }
    return gamma;
}

}  // namespace standings_detail

[[nodiscard]] inline std::vector<double> bradley_terry_elo(int engines, const std::vector<PairResult>& results) {
    std::vector<double> elo(static_cast<std::size_t>(engines), 0.0);
    std::vector<bool> finite(static_cast<std::size_t>(engines), true);
    standings_detail::drop_perfect_scores(results, finite, elo);
    const std::vector<double> gamma = standings_detail::fit_strengths(results, finite);
    // Elo from the strengths, centred on the finite engines' mean.
    double sum = 0;
    int count = 0;
    for (std::size_t i = 0; i < finite.size(); ++i) {
        if (!finite[i]) continue;
        elo[i] = 400.0 * std::log10(gamma[i]);
        sum += elo[i];
        ++count;
    }
    for (std::size_t i = 0; i < finite.size(); ++i) {
        if (finite[i] && count) elo[i] -= sum / count;
    }
    return elo;
}

// `pairs[k]` are the statistics of pairing `pairings_of[k]` (from its first engine's side).
[[nodiscard]] inline std::vector<Standing> compute_standings(int engines, const std::vector<PairResult>& results,
                                                             const std::vector<MatchStatistics>& stats) {
    std::vector<Standing> out(static_cast<std::size_t>(engines));
    for (int e = 0; e < engines; ++e) out[static_cast<std::size_t>(e)].engine = e;
    for (std::size_t k = 0; k < results.size() && k < stats.size(); ++k) {
        auto& a = out[static_cast<std::size_t>(results[k].first)];
        auto& b = out[static_cast<std::size_t>(results[k].second)];
        const auto& st = stats[k];
        a.games += st.games;
        b.games += st.games;
        a.wins += st.wins;
        a.draws += st.draws;
        a.losses += st.losses;
        b.wins += st.losses;
        b.draws += st.draws;
        b.losses += st.wins;
    }
    const auto elo = bradley_terry_elo(engines, results);
    for (auto& s : out) {
        s.points = s.wins + 0.5 * s.draws;
        s.score = s.games ? s.points / s.games : 0.5;
        s.elo = elo[static_cast<std::size_t>(s.engine)];
    }
    std::stable_sort(out.begin(), out.end(), [](const Standing& x, const Standing& y) {
        if (x.points != y.points) return x.points > y.points;
        return x.score > y.score;
    });
    return out;
}

[[nodiscard]] inline PairResult pair_result(int first, int second, const MatchStatistics& st) {
    return {first, second, st.games, st.wins + 0.5 * st.draws};
}

}  // namespace reversi::match
