// Tournament scheduling (tournament.hpp) and standings (standings.hpp) against hand-worked values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "tools/match/standings.hpp"
#include "tools/match/tournament.hpp"

using namespace reversi::match;

namespace {

// Statistics of a pairing from its first engine's W/D/L (only the fields the standings read).
MatchStatistics wdl(int w, int d, int l) {
    MatchStatistics st;
    st.games = w + d + l;
    st.wins = w;
    st.draws = d;
    st.losses = l;
    return st;
}

}  // namespace

TEST_CASE("tournament: round-robin and gauntlet pairings") {
    const std::vector<Pairing> rr = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    CHECK(tournament_pairings(4, TournamentKind::RoundRobin) == rr);
    const std::vector<Pairing> g = {{0, 1}, {0, 2}, {0, 3}};
    CHECK(tournament_pairings(4, TournamentKind::Gauntlet) == g);
    const std::vector<Pairing> two = {{0, 1}};
    CHECK(tournament_pairings(2, TournamentKind::RoundRobin) == two);
    CHECK(tournament_pairings(2, TournamentKind::Gauntlet) == two);
    CHECK(parse_tournament_kind("gauntlet") == TournamentKind::Gauntlet);
    CHECK(parse_tournament_kind("round-robin") == TournamentKind::RoundRobin);
    CHECK(!parse_tournament_kind("swiss"));
}

TEST_CASE("tournament: game numbering interleaves the pairings by colour pair and is one-to-one") {
    // Two engines: the global number is the local one (the files of a plain match).
    for (int g = 0; g < 50; ++g) CHECK(locate_game(g, 1) == GameSlot{0, g});
    std::vector<int> identity;
    for (int g = 0; g < 7; ++g) identity.push_back(g);
    CHECK(tournament_schedule(1, 7) == identity);
    // Three pairings: games 0,1 pairing 0; 2,3 pairing 1; 4,5 pairing 2; 6,7 pairing 0 local 2,3 ...
    CHECK(locate_game(0, 3) == GameSlot{0, 0});
    CHECK(locate_game(3, 3) == GameSlot{1, 1});
    CHECK(locate_game(4, 3) == GameSlot{2, 0});
    CHECK(locate_game(7, 3) == GameSlot{0, 3});
    CHECK(locate_game(11, 3) == GameSlot{2, 3});
    // Five games per pairing (the last colour pair incomplete): every (pairing, local) exactly once.
    const auto schedule = tournament_schedule(3, 5);
    CHECK(schedule.size() == 15);
    std::set<std::pair<int, int>> seen;
    for (int g : schedule) {
        const auto s = locate_game(g, 3);
        CHECK(s.local < 5);
        CHECK(global_game(s, 3) == g);
        seen.insert({s.pairing, s.local});
    }
    CHECK(seen.size() == 15);
    // The numbering does not depend on the number of games: more games extend, never renumber.
    const auto longer = tournament_schedule(3, 8);
    for (int g : schedule) CHECK(std::find(longer.begin(), longer.end(), g) != longer.end());
}

TEST_CASE("standings: Bradley-Terry Elo of a consistent three-engine result, by hand") {
    // A-B 3/4, B-C 3/4, A-C 9/10 are exactly the expected scores of strengths 9 : 3 : 1
    // (3/(3+1) = 3/4, 9/(9+1) = 9/10), so the maximum likelihood ratings are 400 log10 of them,
    // shifted to mean 0: A +400 log10 3 = +190.8485, B 0, C -190.8485.
    const std::vector<PairResult> results = {{0, 1, 4, 3.0}, {1, 2, 4, 3.0}, {0, 2, 10, 9.0}};
    const auto elo = bradley_terry_elo(3, results);
    CHECK(elo[0] == doctest::Approx(400 * std::log10(3.0)).epsilon(1e-9));
    CHECK(elo[1] == doctest::Approx(0).epsilon(1e-9));
    CHECK(elo[2] == doctest::Approx(-400 * std::log10(3.0)).epsilon(1e-9));
    CHECK(400 * std::log10(3.0) == doctest::Approx(190.8485).epsilon(1e-6));

    // Two engines: the difference is the match Elo of the score. 6/8 = 0.75 -> 190.848 -> +-95.424.
    const auto two = bradley_terry_elo(2, {{0, 1, 8, 6.0}});
    CHECK(two[0] == doctest::Approx(95.424).epsilon(1e-5));
    CHECK(two[1] == doctest::Approx(-95.424).epsilon(1e-5));

    // A symmetric cycle (A beats B, B beats C, C beats A, each 3/4): everyone 0.
    const auto cycle = bradley_terry_elo(3, {{0, 1, 4, 3.0}, {1, 2, 4, 3.0}, {2, 0, 4, 3.0}});
    for (double e : cycle) CHECK(e == doctest::Approx(0).epsilon(1e-9));
}

TEST_CASE("standings: an engine without points is -inf, the others are rated among themselves") {
    // C loses every game; A-B 3/4 -> A +95.424, B -95.424; C -inf.
    const auto elo = bradley_terry_elo(3, {{0, 1, 4, 3.0}, {0, 2, 4, 4.0}, {1, 2, 4, 4.0}});
    CHECK(elo[0] == doctest::Approx(95.424).epsilon(1e-5));
    CHECK(elo[1] == doctest::Approx(-95.424).epsilon(1e-5));
    CHECK(std::isinf(elo[2]));
    CHECK(elo[2] < 0);
    // A wins everything: +inf; B-C alone decide the rest.
    const auto top = bradley_terry_elo(3, {{0, 1, 2, 2.0}, {0, 2, 2, 2.0}, {1, 2, 4, 1.0}});
    CHECK(std::isinf(top[0]));
    CHECK(top[0] > 0);
    CHECK(top[1] == doctest::Approx(-95.424).epsilon(1e-5));
    CHECK(top[2] == doctest::Approx(95.424).epsilon(1e-5));
}

TEST_CASE("standings: points, games, score and order of a hand-checked round-robin") {
    // A-B: A 2 wins 1 draw 1 loss (2.5/4); A-C: A 0/2/2 (1/4); B-C: B 3/1/0 (3.5/4).
    // A: 3.5 points of 8 (43.75%): W 2, D 3, L 3.   B: 1.5 + 3.5 = 5 of 8 (62.5%): W 4, D 2, L 2.
    // C: 3 + 0.5 = 3.5 of 8: W 2, D 3, L 3.  Order: B first; A and C tie (stable: A before C).
    const std::vector<MatchStatistics> stats = {wdl(2, 1, 1), wdl(0, 2, 2), wdl(3, 1, 0)};
    std::vector<PairResult> results = {pair_result(0, 1, stats[0]), pair_result(0, 2, stats[1]),
                                       pair_result(1, 2, stats[2])};
    CHECK(results[0].first_points == 2.5);
    CHECK(results[1].first_points == 1.0);
    const auto table = compute_standings(3, results, stats);
    REQUIRE(table.size() == 3);
    CHECK(table[0].engine == 1);
    CHECK(table[0].points == 5.0);
    CHECK(table[0].games == 8);
    CHECK(table[0].wins == 4);
    CHECK(table[0].draws == 2);
    CHECK(table[0].losses == 2);
    CHECK(table[0].score == 0.625);
    CHECK(table[1].engine == 0);
    CHECK(table[1].points == 3.5);
    CHECK(table[1].wins == 2);
    CHECK(table[1].draws == 3);
    CHECK(table[1].losses == 3);
    CHECK(table[2].engine == 2);
    CHECK(table[2].points == 3.5);
    CHECK(table[2].score == 0.4375);
    // The ratings satisfy the likelihood equations: expected points = actual points for everyone.
    std::vector<double> elo(3);
    for (const auto& s : table) elo[static_cast<std::size_t>(s.engine)] = s.elo;
    CHECK(elo[0] + elo[1] + elo[2] == doctest::Approx(0).epsilon(1e-9));
    for (int i = 0; i < 3; ++i) {
        double expected = 0, actual = 0;
        for (const auto& r : results) {
            if (r.first != i && r.second != i) continue;
            const int j = r.first == i ? r.second : r.first;
            expected += r.games * score_from_elo(elo[static_cast<std::size_t>(i)] - elo[static_cast<std::size_t>(j)]);
            actual += r.first == i ? r.first_points : r.games - r.first_points;
        }
        CHECK(expected == doctest::Approx(actual).epsilon(1e-9));
    }
    CHECK(elo[1] > elo[0]);
    CHECK(elo[1] > elo[2]);
}
