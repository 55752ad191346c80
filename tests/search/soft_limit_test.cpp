// The soft limit of a timed search scaled by the best move's stability (engine/search/soft_limit.hpp).
#include <doctest/doctest.h>

#include <chrono>

#include "engine/search/soft_limit.hpp"

using namespace reversi;
using std::chrono::milliseconds;

TEST_CASE("SoftLimitScale: a changed best move lengthens the share, until the move settles again") {
    SoftLimitScale s(0.7, 0.5);
    CHECK(s.factor() == doctest::Approx(0.7));
    // The first iterations do not count, whatever they say.
    s.push(1, 19);
    s.push(2, 20);
    s.push(3, 21);
    CHECK(s.instability() == 0.0);
    s.push(4, 21);  // the same move as depth 3: no change
    CHECK(s.instability() == 0.0);
    s.push(5, 37);  // a change
    CHECK(s.instability() == doctest::Approx(1.0));
    CHECK(s.factor() == doctest::Approx(1.2));
    s.push(6, 44);  // another change: 1/2 + 1
    CHECK(s.instability() == doctest::Approx(1.5));
    for (int d = 7; d < 20; ++d) s.push(d, 44);  // settled again: halves at every iteration
    CHECK(s.instability() < 0.001);
    CHECK(s.factor() == doctest::Approx(0.7).epsilon(0.001));
}

TEST_CASE("SoftLimitScale: the scale is capped, and the hard limit is never passed") {
    SoftLimitScale s(0.5, 1.0);
    for (int d = 4; d < 12; ++d) s.push(d, static_cast<Move>(d));  // a new move at every iteration
    CHECK(s.factor() == doctest::Approx(SoftLimitScale::kMaxScale));
    CHECK(s.scaled(milliseconds(100), milliseconds(1000)) == milliseconds(180));
    CHECK(s.scaled(milliseconds(100), milliseconds(150)) == milliseconds(150));

    SoftLimitScale settled(0.5, 1.0);
    for (int d = 4; d < 12; ++d) settled.push(d, 19);
    CHECK(settled.scaled(milliseconds(100), milliseconds(1000)).count() == doctest::Approx(50).epsilon(0.03));
}

TEST_CASE("SoftLimitScale: the engine's scale never shortens the share, and a movetime search keeps its budget") {
    SoftLimitScale s;
    CHECK(s.factor() == doctest::Approx(SoftLimitScale::kSettledScale));
    for (int d = 4; d < 12; ++d) s.push(d, 19);
    CHECK(s.factor() >= 1.0);
    CHECK(s.scaled(milliseconds(70), milliseconds(300)) == milliseconds(70));
    s.push(12, 20);
    CHECK(s.scaled(milliseconds(70), milliseconds(300)) ==
          milliseconds(static_cast<int>(70 * (SoftLimitScale::kSettledScale + SoftLimitScale::kPerChangeScale))));
    // soft = hard: a movetime search, whose budget is its own, whatever the scale
    SoftLimitScale shorter(0.7, 0.5);
    for (int d = 4; d < 12; ++d) shorter.push(d, 19);
    CHECK(shorter.factor() < 1.0);
    CHECK(shorter.scaled(milliseconds(70), milliseconds(70)) == milliseconds(70));
    s.push(13, 21);
    CHECK(s.scaled(milliseconds(70), milliseconds(70)) == milliseconds(70));
}

TEST_CASE("IterationForecast: the next iteration is the last one times the growth, within its bounds") {
    using Micros = IterationForecast::Micros;
    IterationForecast f;
    CHECK_FALSE(f.next().has_value());  // nothing measured yet: every iteration fits
    CHECK(f.fits(Micros(1'000'000), Micros(1)));
    f.push(Micros(50));
    f.push(Micros(120));
    CHECK_FALSE(f.next().has_value());  // the iteration before the last is too short to measure
    f.push(Micros(300));
    REQUIRE(f.next().has_value());
    CHECK(f.next()->count() == 750);  // 300 * 300 / 120
    CHECK(f.fits(Micros(250), Micros(1000)));
    CHECK_FALSE(f.fits(Micros(251), Micros(1000)));
    f.push(Micros(330));  // growth 1.1: at least kMinGrowth
    CHECK(f.next()->count() == static_cast<Micros::rep>(330 * IterationForecast::kMinGrowth));
    f.push(Micros(33'000));  // growth 100: at most kMaxGrowth
    CHECK(f.next()->count() == static_cast<Micros::rep>(33'000 * IterationForecast::kMaxGrowth));
}
