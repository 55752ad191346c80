// Match statistics and SPRT against values worked out by hand (the derivations are in the comments;
// the decimals were checked with a calculator).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "tools/match/sprt.hpp"
#include "tools/match/statistics.hpp"

using namespace reversi::match;

namespace {

// Ten games in five colour pairs, A's points per game:
//   pair 0: 1, 0     pair 1: 1, 1     pair 2: 0.5, 1     pair 3: 0, 0.5     pair 4: 0.5, 0.5
std::vector<GameOutcome> ten_games() {
    const double pts[10] = {1, 0, 1, 1, 0.5, 1, 0, 0.5, 0.5, 0.5};
    const int margins[10] = {10, -4, 20, 6, 0, 2, -30, 0, 0, 0};
    std::vector<GameOutcome> g;
    for (int i = 0; i < 10; ++i) g.push_back({i, pts[i], margins[i]});
    return g;
}

}  // namespace

TEST_CASE("statistics: W/D/L, score, Elo and the trinomial interval of ten fixed games") {
    const auto st = compute_statistics(ten_games());
    CHECK(st.games == 10);
    CHECK(st.wins == 4);
    CHECK(st.draws == 4);
    CHECK(st.losses == 2);
    // score = (4 + 4/2) / 10 = 0.6; Elo = -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.4365
    CHECK(st.score == doctest::Approx(0.6));
    CHECK(st.elo.elo == doctest::Approx(70.4365).epsilon(1e-5));
    // variance per game = (4 * 0.4^2 + 4 * 0.1^2 + 2 * 0.6^2) / 10 = 1.4 / 10 = 0.14
    // standard error = sqrt(0.14 / 10) = 0.118322; 0.6 -+ 1.959964 * 0.118322 = 0.368093 .. 0.831907
    CHECK(st.elo_trinomial.score_stderr == doctest::Approx(0.1183216).epsilon(1e-6));
    CHECK(st.elo_trinomial.low == doctest::Approx(-93.8775).epsilon(1e-5));
    CHECK(st.elo_trinomial.high == doctest::Approx(277.8089).epsilon(1e-5));
    // average disc margin = (10 - 4 + 20 + 6 + 0 + 2 - 30 + 0 + 0 + 0) / 10 = 0.4
    CHECK(st.margin_games == 10);
    CHECK(st.average_margin == doctest::Approx(0.4));
}

TEST_CASE("statistics: pentanomial counts and the pair-based interval") {
    const auto st = compute_statistics(ten_games());
    // pair points 1, 2, 1.5, 0.5, 1 -> counts by points [0, 0.5, 1, 1.5, 2] = [0, 1, 2, 1, 1]
    CHECK(st.pairs == 5);
    CHECK(st.pentanomial == std::array<int, 5>{0, 1, 2, 1, 1});
    // pair scores 0.5, 1, 0.75, 0.25, 0.5: mean 0.6, variance (0.01 + 0.16 + 0.0225 + 0.1225 + 0.01) / 5 = 0.065
    CHECK(st.pair_mean == doctest::Approx(0.6));
    CHECK(st.pair_variance == doctest::Approx(0.065));
    // standard error sqrt(0.065 / 5) = 0.114018; 0.6 -+ 0.223468 = 0.376532 .. 0.823468
    CHECK(st.elo.score_stderr == doctest::Approx(0.1140175).epsilon(1e-6));
    CHECK(st.elo.low == doctest::Approx(-87.6066).epsilon(1e-5));
    CHECK(st.elo.high == doctest::Approx(267.5320).epsilon(1e-5));
    CHECK(st.elo.elo == doctest::Approx(70.4365).epsilon(1e-5));
}

TEST_CASE("statistics: LOS from wins and losses") {
    // W = 4, L = 2: 0.5 * (1 + erf(2 / sqrt(12))) = 0.5 * (1 + erf(0.577350)) = 0.792892
    CHECK(compute_statistics(ten_games()).los == doctest::Approx(0.7928919).epsilon(1e-6));
    // only draws: no evidence either way
    std::vector<GameOutcome> draws = {{0, 0.5, 0}, {1, 0.5, 0}};
    CHECK(compute_statistics(draws).los == doctest::Approx(0.5));
}

TEST_CASE("statistics: edge cases (no games, all wins, forfeits without margin, incomplete pairs)") {
    const auto none = compute_statistics({});
    CHECK(none.games == 0);
    CHECK(none.score == doctest::Approx(0.5));
    CHECK(none.pairs == 0);
    CHECK(std::isinf(none.elo.low));

    // three games: a complete pair of wins (one by forfeit, no margin) and a lone loss
    std::vector<GameOutcome> g = {{0, 1, 8}, {1, 1, std::nullopt}, {2, 0, -2}};
    const auto st = compute_statistics(g);
    CHECK(st.pairs == 1);  // game 2's partner (game 3) is missing
    CHECK(st.pentanomial == std::array<int, 5>{0, 0, 0, 0, 1});
    CHECK(st.margin_games == 2);
    CHECK(st.average_margin == doctest::Approx(3.0));
    CHECK(st.score == doctest::Approx(2.0 / 3.0));

    std::vector<GameOutcome> wins = {{0, 1, 4}, {1, 1, 4}};
    const auto w = compute_statistics(wins);
    CHECK(std::isinf(w.elo.elo));
    CHECK(w.elo.elo > 0);
    CHECK(elo_from_score(0.5) == doctest::Approx(0.0));
    CHECK(score_from_elo(elo_from_score(0.3)) == doctest::Approx(0.3));
}

TEST_CASE("sprt: LLR and bounds for the ten fixed games") {
    // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514387
    // LLR = 5 * (0.014387) * (2 * 0.6 - 0.5 - 0.514387) / (2 * 0.065) = 0.102709
    // bounds log(0.05 / 0.95) = -2.944439 and log(0.95 / 0.05) = 2.944439
    const auto s = sprt({0, 10, 0.05, 0.05}, compute_statistics(ten_games()));
    CHECK(s.llr == doctest::Approx(0.1027095).epsilon(1e-6));
    CHECK(s.lower == doctest::Approx(-2.944439).epsilon(1e-6));
    CHECK(s.upper == doctest::Approx(2.944439).epsilon(1e-6));
    CHECK(s.decision == SprtDecision::Continue);
}

TEST_CASE("sprt: decides H1 for a clearly stronger engine and H0 for a clearly weaker one") {
    // 30 pairs: 25 won twice, 5 lost twice. m = 25/30, v = m (1 - m) = 0.138889
    // elo1 = 100: s1 = 0.640065; LLR = 30 * 0.140065 * (1.666667 - 1.140065) / 0.277778 = 7.96591
    std::vector<GameOutcome> strong;
    for (int p = 0; p < 30; ++p) {
        const double pts = p < 25 ? 1.0 : 0.0;
        strong.push_back({2 * p, pts, 1});
        strong.push_back({2 * p + 1, pts, 1});
    }
    const auto h1 = sprt({0, 100, 0.05, 0.05}, compute_statistics(strong));
    CHECK(h1.llr == doctest::Approx(7.96591).epsilon(1e-5));
    CHECK(h1.decision == SprtDecision::AcceptH1);
    // mirror: 5 pairs won, 25 lost: m = 1/6, LLR = 30 * 0.140065 * (0.333333 - 1.140065) / 0.277778 = -12.20345
    for (auto& g : strong) g.points = 1.0 - g.points;
    const auto h0 = sprt({0, 100, 0.05, 0.05}, compute_statistics(strong));
    CHECK(h0.llr == doctest::Approx(-12.20345).epsilon(1e-5));
    CHECK(h0.decision == SprtDecision::AcceptH0);
}

TEST_CASE("sprt: zero variance (every pair lost) is regularised and decides H0") {
    // sixteen pairs, all LL: counts [16, 0, 0, 0, 0] -> [16, 0.001, 0.001, 0.001, 0.001] (total 16.004)
    // m = 0.001 * (0.25 + 0.5 + 0.75 + 1) / 16.004 = 0.00015621, v = 0.00011713
    // elo1 = 50: s1 = 0.571463; LLR = 16 * 0.071463 * (0.00031242 - 1.071463) / (2 * 0.00011713) = -5228.06
    std::vector<GameOutcome> lost;
    for (int i = 0; i < 2 * kSprtMinPairs; ++i) lost.push_back({i, 0.0, std::nullopt});
    const auto s = sprt({0, 50, 0.05, 0.05}, compute_statistics(lost));
    CHECK(s.llr == doctest::Approx(-5228.06).epsilon(1e-5));
    CHECK(s.decision == SprtDecision::AcceptH0);
}

TEST_CASE("sprt: no decision before the minimum of pairs, however large the LLR") {
    // Two pairs, 2-0 and 1.5-0.5: m = 0.875, v = 0.015625; elo1 = 50: LLR = 2 * 0.071463 * (1.75 -
    // 1.071463) / 0.03125 = 3.1034, beyond the upper bound 2.944 (equal engines often start so).
    const std::vector<GameOutcome> two = {{0, 1.0, 1}, {1, 1.0, 1}, {2, 1.0, 1}, {3, 0.5, 1}};
    const auto s = sprt({0, 50, 0.05, 0.05}, compute_statistics(two));
    CHECK(s.llr == doctest::Approx(3.10338).epsilon(1e-5));
    CHECK(s.llr > s.upper);
    CHECK(s.decision == SprtDecision::Continue);
    // Fifteen pairs all lost: still no decision; the sixteenth decides (the case above).
    std::vector<GameOutcome> lost;
    for (int i = 0; i < 2 * (kSprtMinPairs - 1); ++i) lost.push_back({i, 0.0, std::nullopt});
    CHECK(sprt({0, 50, 0.05, 0.05}, compute_statistics(lost)).decision == SprtDecision::Continue);
}
