// The runner's clock: parsing "base+increment", charging moves, the forfeit margin.
#include <doctest/doctest.h>

#include "tools/match/time_control.hpp"

using namespace reversi::match;
using std::chrono::milliseconds;

TEST_CASE("time control: clock strings") {
    auto tc = parse_clock("10+0.1", {});
    REQUIRE(tc.has_value());
    CHECK(tc->base == milliseconds(10000));
    CHECK(tc->increment == milliseconds(100));
    auto plain = parse_clock("2.5", {});
    REQUIRE(plain.has_value());
    CHECK(plain->base == milliseconds(2500));
    CHECK(plain->increment == milliseconds(0));
    for (const char* bad : {"", "+1", "abc", "10+", "-5", "0", "10+x", "1e9"}) {
        CHECK_MESSAGE(!parse_clock(bad, {}).has_value(), bad);
    }
}

TEST_CASE("time control: a Fischer clock is charged, refilled and flags beyond the margin") {
    TimeControl tc;
    tc.base = milliseconds(1000);
    tc.increment = milliseconds(100);
    tc.margin = milliseconds(50);
    GameClock clock(tc);
    CHECK(clock.charge(milliseconds(400)));
    CHECK(clock.remaining() == milliseconds(700));  // 1000 - 400 + 100
    CHECK(clock.charge(milliseconds(740)));         // 40 ms over the flag: within the margin
    CHECK(clock.remaining() == milliseconds(100));  // clamped at 0, then the increment
    CHECK_FALSE(clock.charge(milliseconds(151)));   // 51 ms over: a time forfeit
    const auto t0 = std::chrono::steady_clock::now();
    GameClock fresh(tc);
    CHECK(*fresh.flag_deadline(t0) == t0 + milliseconds(1050));
}

TEST_CASE("time control: movetime and depth limits") {
    TimeControl mt;
    mt.movetime = milliseconds(200);
    mt.margin = milliseconds(20);
    GameClock c(mt);
    CHECK(c.charge(milliseconds(220)));
    CHECK_FALSE(c.charge(milliseconds(221)));
    TimeControl depth;
    depth.depth = 4;
    GameClock d(depth);
    CHECK_FALSE(d.flag_deadline(std::chrono::steady_clock::now()).has_value());
    CHECK(d.charge(milliseconds(1000000)));
}
