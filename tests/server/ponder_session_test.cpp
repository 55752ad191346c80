// UCI pondering end to end over pipes: go ponder holds its bestmove until ponderhit or stop, ponderhit
// makes it a timed search on the go ponder's clock, and ponderhit without a pondering search is an error.
#include <doctest/doctest.h>

#include <algorithm>
#include <thread>

#include "engine/board/notation.hpp"
#include "engine_process.hpp"
#include "tests/support/text_checks.hpp"

using namespace reversi::testing;
using Clock = std::chrono::steady_clock;

namespace {

// Every line that arrives within `window`.
std::vector<std::string> read_for(LineChannel& io, std::chrono::milliseconds window) {
    std::vector<std::string> lines;
    const auto end = Clock::now() + window;
    while (Clock::now() < end) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
        auto line = io.read_line(std::max(left, std::chrono::milliseconds(1)));
        if (!line) break;
        lines.push_back(*line);
    }
    return lines;
}

// Waits until the engine has started and allocated its tables (ucinewgame), so that the timings below
// measure the pondering only (a sanitizer build starts slowly).
void ready(LineChannel& io) {
    io.send("ucinewgame");
    io.send("isready");
    REQUIRE(io.read_line(30s) == "readyok");
}

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

}  // namespace

TEST_CASE("go ponder sends no bestmove before ponderhit even when its depth-limited search has ended") {
    EngineProcess engine;
    auto& io = engine.io();
    ready(io);
    io.send("position startpos moves f5");
    io.send("go ponder depth 2 btime 30000 wtime 30000");
    const auto searched = io.read_until("info depth 2 ", 10s);
    REQUIRE(!searched.empty());                      // the search ran (and ended) ...
    CHECK(count_prefix(searched, "bestmove") == 0);  // ... but holds its answer
    CHECK(count_prefix(read_for(io, 500ms), "bestmove") == 0);
    io.send("isready");
    CHECK(io.read_line(2s) == "readyok");  // at once, also while a search ponders
    const auto start = Clock::now();
    io.send("ponderhit");
    const auto lines = io.read_until("bestmove ", 5s);
    REQUIRE(!lines.empty());
    CHECK(ms_since(start) < 2000);
    CHECK(count_prefix(lines, "info string stats ") == 1);
    io.send("isready");
    CHECK(io.read_line() == "readyok");  // exactly one bestmove
}

TEST_CASE("ponderhit turns the pondering into a timed search that answers within the go ponder's clock") {
    EngineProcess engine;
    auto& io = engine.io();
    ready(io);
    io.send("position startpos moves f5");
    // White's clock 30 s: a soft limit near 0.9 s and a hard one near 3.2 s (time_manager.hpp).
    io.send("go ponder btime 30000 wtime 30000 binc 0 winc 0");
    CHECK(count_prefix(read_for(io, 200ms), "bestmove") == 0);
    const auto start = Clock::now();
    io.send("ponderhit");
    const auto lines = io.read_until("bestmove ", 10s);
    REQUIRE(!lines.empty());
    const double after_hit = ms_since(start);
    CHECK(after_hit > 200);   // it went on searching with the time the pondering had left
    CHECK(after_hit < 5000);  // and ended by its limits (hard limit 3.2 s minus the time pondered)
    const auto move = reversi::parse_move(lines.back().substr(9));
    CHECK(move.has_value());
}

TEST_CASE("ponderhit after pondering longer than the move's share answers at once") {
    EngineProcess engine;
    auto& io = engine.io();
    ready(io);
    io.send("position startpos moves f5");
    io.send("go ponder btime 30000 wtime 30000");  // soft limit near 0.9 s, counted from the go ponder
    CHECK(count_prefix(read_for(io, 1500ms), "bestmove") == 0);
    const auto start = Clock::now();
    io.send("ponderhit");
    REQUIRE(!io.read_until("bestmove ", 10s).empty());
    CHECK(ms_since(start) < 700);  // not another 0.9 s: the pondering counted as time used
}

TEST_CASE("stop during go ponder gives the bestmove at once and so does quit") {
    EngineProcess engine;
    auto& io = engine.io();
    ready(io);
    io.send("position startpos moves f5");
    io.send("go ponder btime 30000 wtime 30000");
    CHECK(count_prefix(read_for(io, 300ms), "bestmove") == 0);
    auto start = Clock::now();
    io.send("stop");
    REQUIRE(!io.read_until("bestmove ", 5s).empty());
    CHECK(ms_since(start) < 2000);
    io.send("ponderhit");  // the stopped search has answered: nothing ponders any more
    auto l = io.read_line();
    REQUIRE(l);
    CHECK(starts_with(*l, "info string error: ponderhit: no search is pondering"));
    io.send("go ponder depth 3 btime 30000 wtime 30000");
    CHECK(count_prefix(read_for(io, 300ms), "bestmove") == 0);
    start = Clock::now();
    io.send("quit");
    REQUIRE(!io.read_until("bestmove ", 5s).empty());
    CHECK(engine.wait_exit() == 0);
}

TEST_CASE("ponderhit passes the commands that wait behind a pondering search") {
    EngineProcess engine;
    auto& io = engine.io();
    ready(io);
    io.send("position startpos moves f5");
    io.send("go ponder btime 30000 wtime 30000");
    CHECK(count_prefix(read_for(io, 200ms), "bestmove") == 0);
    // Each waits for the pondering search to end; before, the ponderhit waited behind them, and the search
    // pondered on (a GUI's clock ran out) until a stop.
    io.send("xyzzy");
    io.send("setoption name MultiPV value 1");
    io.send("go depth 2");
    io.send("ponderhit");
    std::vector<std::string> lines = io.read_until("bestmove ", 10s);  // without a stop
    REQUIRE(!lines.empty());
    for (const auto& l : io.read_until("bestmove ", 10s)) lines.push_back(l);  // the go depth 2's
    io.send("isready");
    for (const auto& l : io.read_until("readyok", 5s)) lines.push_back(l);
    CHECK(count_prefix(lines, "bestmove ") == 2);
    CHECK(count_prefix(lines, "info string error: unknown command 'xyzzy'") == 1);
    CHECK(count_prefix(lines, "info string error: ponderhit") == 0);
}

TEST_CASE("ponderhit without a pondering search gives an error line and the session goes on") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("ponderhit");
    auto l = io.read_line();
    REQUIRE(l);
    CHECK(*l ==
          "info string error: ponderhit: no search is pondering (ponderhit follows a go ponder, before its stop)");
    io.send("go depth 3");
    REQUIRE(!io.read_until("bestmove ").empty());
    io.send("ponderhit");  // after a normal search
    l = io.read_line();
    REQUIRE(l);
    CHECK(starts_with(*l, "info string error: ponderhit"));
    io.send("go infinite");
    io.send("ponderhit");  // during a search that does not ponder
    l = io.read_line(5s);
    REQUIRE(l);
    while (l && starts_with(*l, "info depth")) l = io.read_line(5s);
    REQUIRE(l);
    CHECK(starts_with(*l, "info string error: ponderhit"));
    io.send("stop");
    REQUIRE(!io.read_until("bestmove ").empty());
    io.send("isready");
    CHECK(io.read_line() == "readyok");
}

TEST_CASE("with the Ponder option on bestmove names the expected reply from the principal variation") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("uci");
    const auto options = io.read_until("uciok");
    CHECK(std::count(options.begin(), options.end(), "option name Ponder type check default false") == 1);
    io.send("position startpos");
    io.send("go depth 4");
    auto lines = io.read_until("bestmove ");
    REQUIRE(!lines.empty());
    CHECK(lines.back().find(" ponder ") == std::string::npos);  // off: the plain form
    io.send("setoption name Ponder value true");
    io.send("go depth 4");
    lines = io.read_until("bestmove ");
    REQUIRE(!lines.empty());
    const std::string& best = lines.back();
    const auto at = best.find(" ponder ");
    REQUIRE(at != std::string::npos);
    const auto move = reversi::parse_move(best.substr(9, at - 9));
    const auto reply = reversi::parse_move(best.substr(at + 8));
    REQUIRE(move);
    REQUIRE(reply);
    const auto after = reversi::apply_move(reversi::start_position(), *move);
    REQUIRE(after);
    CHECK(reversi::apply_move(*after, *reply).has_value());  // a legal reply
    // The last info line's PV starts with the same two moves.
    const auto pv =
        std::find_if(lines.rbegin(), lines.rend(), [](const auto& l) { return starts_with(l, "info depth"); });
    REQUIRE(pv != lines.rend());
    CHECK(pv->find(" pv " + best.substr(9, at - 9) + " " + best.substr(at + 8)) != std::string::npos);
}
