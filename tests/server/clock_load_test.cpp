// The clock under load: a fast clock game with two busy threads competing for the cores (on the 2-core
// development machine, beside the rest of the suite). The hogs stop when the test ends or after 90 s.
#include <doctest/doctest.h>

#include "clock_game.hpp"

using namespace reversi::testing;

TEST_CASE("a clock game at 3 s + 30 ms with two CPU hogs beside it never runs out of time") {
    CpuHogs hogs(2, std::chrono::seconds(90));
    EngineProcess engine;  // default MoveOverhead: the adaptive margin has to cover the load
    const ClockGame game = play_clock_game(engine.io(), 3000, 30);
    CHECK(hogs.spins() > 0);
    CHECK_MESSAGE(!game.forfeit, game.failure);
    CHECK_MESSAGE(game.finished, game.failure);
    MESSAGE("plies " << game.plies << ", least clock left " << game.least_left_ms << " ms, worst overstep "
                     << game.worst_overstep_ms << " ms");
}
