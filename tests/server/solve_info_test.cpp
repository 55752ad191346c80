// Info during exact solves, end to end: `go solve`, `go wld` and NBoard `go`/`hint` report root moves as
// they are proved (depth = empties, bounds as lowerbound/upperbound), a long solve reports each second,
// and `stop` ends it at once with a bestmove.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <string>

#include "engine_process.hpp"
#include "tests/support/text_checks.hpp"

using namespace reversi::testing;

namespace {

// FFO #40 (20 empties, black to move: A2 +38), FFO #53 (28 empties: a solve of many seconds) and FFO #1
// (14 empties, +18), in UCI's `position board` form.
const std::string kFfo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
const std::string kFfo53 = "----OO-----OOO---XXXXOOO--XXOOXO-XXXXXOO--OOOXOO--X-OX-O-----X-- X";
const std::string kFfo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

// The same positions as NBoard's GGF (black '*', white 'O').
std::string ggf(std::string board) {
    std::replace(board.begin(), board.end(), 'X', '*');
    return "(;GM[Othello]PC[test]TY[8]BO[8 " + board + "];)";
}

// The info lines at `depth` that come before the last of them (the solve's result).
std::vector<std::string> progress_lines(const std::vector<std::string>& lines, int depth) {
    std::vector<std::string> out;
    for (const auto& l : lines) {
        if (starts_with(l, "info depth " + std::to_string(depth) + " ")) out.push_back(l);
    }
    if (!out.empty()) out.pop_back();
    return out;
}

}  // namespace

TEST_CASE("go solve at 20 empties prints info lines at depth 20 with bounds before the exact one") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("position board " + kFfo40);
    io.send("go solve");
    const auto lines = io.read_until("bestmove ", 120s);
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "bestmove a2");
    CHECK(std::find(lines.begin(), lines.end(), "info string exact score 38 discs") != lines.end());
    const auto progress = progress_lines(lines, 20);
    CHECK(!progress.empty());
    const bool bound = std::any_of(progress.begin(), progress.end(), [](const auto& l) {
        return contains(l, " score cp ") && (contains(l, " lowerbound ") || contains(l, " upperbound "));
    });
    CHECK(bound);
    const bool labelled =
        std::any_of(progress.begin(), progress.end(), [](const auto& l) { return !contains(l, " selectivity 100 "); });
    CHECK(labelled);  // the selective passes say their confidence
    for (const auto& l : progress) {
        for (const char* field : {" seldepth 20 ", " nodes ", " nps ", " time "}) CHECK_MESSAGE(contains(l, field), l);
    }
}

TEST_CASE("go wld prints its proved bound at depth = empties before the win") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("position board " + kFfo40);
    io.send("go wld");
    const auto lines = io.read_until("bestmove ", 120s);
    REQUIRE(!lines.empty());
    CHECK(std::find(lines.begin(), lines.end(), "info string wld win") != lines.end());
    const auto progress = progress_lines(lines, 20);
    const bool lower =
        std::any_of(progress.begin(), progress.end(), [](const auto& l) { return contains(l, " lowerbound "); });
    CHECK(lower);
}

TEST_CASE("go wld with MultiPV 2 sends the position's verdict once, not each line's") {
    // d1 wins by 2, g3 draws: before, "info string wld win" came after line 1 and "info string wld draw"
    // after line 2 (with MultiPV 4 and three moves the last verdict was a loss).
    EngineProcess engine;
    auto& io = engine.io();
    io.send("setoption name MultiPV value 2");
    io.send("position board ----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X");
    io.send("go wld");
    const auto lines = io.read_until("bestmove ", 60s);
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "bestmove d1");
    std::vector<std::string> verdicts;
    std::copy_if(lines.begin(), lines.end(), std::back_inserter(verdicts),
                 [](const auto& l) { return starts_with(l, "info string wld "); });
    CHECK(verdicts == std::vector<std::string>{"info string wld win"});
    const bool second_line = std::any_of(lines.begin(), lines.end(), [](const auto& l) {
        return starts_with(l, "info depth 14 ") && contains(l, " multipv 2 ") && contains(l, " pv g3");
    });
    CHECK(second_line);
}

TEST_CASE("a long go solve reports at depth = empties and stop answers promptly with a bestmove") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("position board " + kFfo53);
    io.send("go solve");
    // The first report of the solve: a root move or the periodic one, within about a second of its start.
    const auto first = io.read_until("info depth 28 ", 30s);
    REQUIRE(!first.empty());
    const auto t0 = std::chrono::steady_clock::now();
    io.send("stop");
    const auto rest = io.read_until("bestmove ", 10s);
    REQUIRE(!rest.empty());
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    CHECK(rest.back() != "bestmove none");
    io.send("isready");
    CHECK(io.read_line() == "readyok");
}

TEST_CASE("go infinite finished early still waits for stop before its bestmove") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("position board " + kFfo1);
    io.send("go infinite");
    // 14 empties: the search is over in milliseconds, the bestmove must wait for stop.
    const auto early = io.read_until("bestmove ", 1500ms);
    CHECK(early.empty());
    io.send("stop");
    const auto lines = io.read_until("bestmove ", 5s);
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "bestmove g8");
}

TEST_CASE("nboard go during a solve sends search and nodestats lines before its move") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    io.send("set depth 60");
    io.send("set game " + ggf(kFfo40));
    io.send("go");
    const auto lines = io.read_until("=== ", 120s);
    REQUIRE(!lines.empty());
    CHECK(starts_with(lines.back(), "=== A2/38.00/"));
    const auto searches =
        std::count_if(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "search "); });
    CHECK(searches >= 2);  // bounds and selective passes first, then the exact result
    const bool labelled = std::any_of(lines.begin(), lines.end(), [](const auto& l) {
        return starts_with(l, "search ") && contains(l, " 0 20@") && l.back() == '%';
    });
    CHECK(labelled);
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "nodestats "); }) >= 2);
}

TEST_CASE("nboard hint during a solve sends each move's search line as it is proved") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    io.send("set depth 20");
    io.send("set game " + ggf(kFfo1));
    io.send("hint 1");
    const auto lines = io.read_until("nodestats ", 120s);
    REQUIRE(!lines.empty());
    std::vector<std::string> searches;
    for (const auto& l : lines) {
        if (starts_with(l, "search ")) searches.push_back(l);
    }
    // One line per legal move while the solve goes on, then the best one.
    CHECK(searches.size() >= 3);
    for (const auto& l : searches) {
        const bool depth_14 = l.size() > 3 && l.compare(l.size() - 3, 3, " 14") == 0;
        CHECK_MESSAGE(depth_14, l);
    }
    CHECK(searches.back().find("search G8") == 0);
    CHECK(contains(searches.back(), " 18.00 0 14"));
}
