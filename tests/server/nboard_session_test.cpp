// End-to-end tests of the NBoard protocol through the real binary, as the NBoard GUI sends it.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/search/search_types.hpp"
#include "engine_process.hpp"

using namespace reversi::testing;

namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

const char* kGame =
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]"
    "BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]"
    "B[E7]W[F4];)";

}  // namespace

TEST_CASE("nboard session as the GUI sends it") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    io.send("set depth 3");
    auto l = io.read_line();
    REQUIRE(l);
    CHECK(starts_with(*l, "set myname "));
    io.send(std::string("set game ") + kGame);
    io.send("ping 1");
    CHECK(io.read_until("pong 1") == std::vector<std::string>{"pong 1"});
    io.send("go");
    auto lines = io.read_until("=== ");
    REQUIRE(!lines.empty());
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "nodestats "); }) == 1);
    const std::string answer = lines.back();  // === MV/eval/time
    CHECK(std::count(answer.begin(), answer.end(), '/') == 2);
    CHECK(io.read_line() == "status");
    // The engine did not play its move: the GUI sends it.
    const std::string move = answer.substr(4, answer.find('/') - 4);
    io.send("move " + move + "/0.00/0.1");
    io.send("hint 3");
    lines = io.read_until("nodestats ");
    REQUIRE(!lines.empty());
    const auto searches = std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "search "); });
    CHECK(searches >= 1);
    CHECK(searches <= 3);
    // The depth field of a selective search: 3@P% (the engine's default selectivity).
    const std::string selective_depth = " 3@" + std::to_string(reversi::kEngineSelectivity) + "%";
    for (const auto& x : lines) {
        if (!starts_with(x, "search ")) continue;
        const bool ends_with_depth = x.size() > selective_depth.size() &&
                                     x.compare(x.size() - selective_depth.size(), std::string::npos, selective_depth) == 0;
        CHECK_MESSAGE(ends_with_depth, x);
    }
    io.send("learn");
    CHECK(!io.read_until("learned").empty());
    io.send("set contempt 100");
    io.send("analyze");
    lines = io.read_until("analysis 0 ", 20s);
    REQUIRE(!lines.empty());
    // Positions 9 (after the GUI's move) down to 0.
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "analysis "); }) == 10);
    io.send("quit");
    CHECK(engine.wait_exit() == 0);
}

TEST_CASE("nboard ping stops a search and pong comes after its output") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    io.send("set depth 60");
    CHECK(starts_with(*io.read_line(), "set myname "));
    io.send("go");
    io.send("ping 7");
    const auto lines = io.read_until("pong 7", 5s);
    REQUIRE(!lines.empty());
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "=== "); }) == 1);
}

TEST_CASE("nboard errors: bad GGF games and illegal moves are refused and the game is kept") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    io.send(std::string("set game ") + kGame);
    const char* bad[] = {
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]",
        "set game (;GM[Chess]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "set game (;GM[Othello]BO[10 ---------------------------O*------*O--------------------------- *];)",
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]W[F5];)",
        "set game (;GM[Othello]B[F5]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "set game (;GM[Othello]BO[8 -----O*------*O--------------------------- *];)",
        "set game garbage",
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5",
        "move Z9",
        "move A1",
        "set depth 0",
        "set depth abc",
        "hint x",
        "frobnicate",
    };
    for (const char* b : bad) {
        io.send(b);
        auto l = io.read_line();
        REQUIRE(l);
        CHECK_MESSAGE(starts_with(*l, "status error: "), b << " -> " << *l);
    }
    io.send("ping 3");
    CHECK(io.read_until("pong 3").size() == 1);
    // The game from kGame is still there: 8 moves, white... black to move; D6 is not legal after F4? analyze counts.
    io.send("set depth 1");
    CHECK(starts_with(*io.read_line(), "set myname"));
    io.send("analyze");
    const auto lines = io.read_until("analysis 0 ", 10s);
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "analysis "); }) == 9);
}

TEST_CASE("nboard GGF with passes") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    // Black must pass in this position (found by a random game); an explicit PA and an implied pass.
    const std::string board = "OOOOOXOOOOOOXXOOOXOOXXOOOXXOOXOOOXOOXOOOOOOOOXOOOOXXXXX-OXXXXXX- *";
    std::string spaced;
    for (char ch : board) spaced += ch == 'X' ? '*' : ch;
    io.send("set game (;GM[Othello]BO[8 " + spaced + "]B[PA]W[H8];)");
    io.send("set depth 2");
    CHECK(starts_with(*io.read_line(), "set myname"));
    io.send("set game (;GM[Othello]BO[8 " + spaced + "]W[H8];)");  // implied pass
    io.send("ping 1");
    const auto lines = io.read_until("pong 1");
    CHECK(lines.size() == 1);
}
