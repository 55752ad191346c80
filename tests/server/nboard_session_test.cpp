// End-to-end tests of the NBoard protocol through the real binary, as the NBoard GUI sends it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <regex>

#include "engine/search/search_types.hpp"
#include "engine_process.hpp"
#include "tests/support/text_checks.hpp"

using namespace reversi::testing;

namespace {

const char* kGame =
    "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]"
    "BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]"
    "B[E7]W[F4];)";

}  // namespace

TEST_CASE("nboard session as the GUI sends it") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    auto l = io.read_line();
    REQUIRE(l);
    CHECK(starts_with(*l, "set myname "));
    io.send("set depth 3");
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
    const auto searches =
        std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "search "); });
    CHECK(searches >= 1);
    CHECK(searches <= 3);
    // The depth field of a selective search: 3@P% (the engine's default selectivity).
    const std::string selective_depth = " 3@" + std::to_string(reversi::kEngineSelectivityPercent) + "%";
    for (const auto& x : lines) {
        if (!starts_with(x, "search ")) continue;
        const bool ends_with_depth =
            x.size() > selective_depth.size() &&
            x.compare(x.size() - selective_depth.size(), std::string::npos, selective_depth) == 0;
        CHECK_MESSAGE(ends_with_depth, x);
    }
    io.send("learn");
    CHECK(!io.read_until("learned").empty());
    io.send("set contempt 0");
    io.send("analyze");
    lines = io.read_until("analysis 0 ", 20s);
    REQUIRE(!lines.empty());
    // Positions 9 (after the GUI's move) down to 0.
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "analysis "); }) == 10);
    io.send("quit");
    CHECK(engine.wait_exit() == 0);
}

TEST_CASE("nboard analyze after a hint gives the values it gives alone") {
    // A hint searches each root move alone: before, those single-move values were stored as the position's
    // and the analysis took them (f5 d6 at depth 4: "analysis 1 11.00" after "hint 2", 3.00 without).
    const auto analysis = [](bool hint_first) {
        EngineProcess engine;
        auto& io = engine.io();
        io.send("nboard 2");
        REQUIRE(io.read_line());
        io.send("set depth 4");
        io.send(std::string("set game ") + kGame);
        if (hint_first) {
            io.send("hint 2");
            REQUIRE(!io.read_until("status").empty());
            REQUIRE(!io.read_until("status").empty());  // status thinking, then the final status
        }
        io.send("analyze");
        auto lines = io.read_until("analysis 0 ", 20s);
        std::erase_if(lines, [](const std::string& x) { return !starts_with(x, "analysis "); });
        io.send("quit");
        CHECK(engine.wait_exit() == 0);
        return lines;
    };
    const auto alone = analysis(false);
    CHECK(alone.size() == 9);
    CHECK(analysis(true) == alone);
}

TEST_CASE("nboard ping while idle allocates the exact solver's table before the first go") {
    // NBoard has no ucinewgame: without this, the first timed go allocated the table (Hash MiB, written
    // as it is cleared) inside its own time. The allocation shows in the resident memory.
    EngineProcess engine({"--hash", "64"});
    auto& io = engine.io();
    io.send("nboard 2");
    REQUIRE(io.read_line());
    io.send(std::string("set game ") + kGame);
    io.send("ping 1");
    REQUIRE(!io.read_until("pong 1").empty());
    const long first = engine.rss_kib();
    io.send("ping 2");  // nothing more to allocate
    REQUIRE(!io.read_until("pong 2").empty());
    CAPTURE(first);
    CHECK(engine.rss_kib() - first < 16 * 1024);
    // Both tables (search and solver, 64 MiB each) are resident before any go.
    CHECK(first >= 112 * 1024);
    io.send("quit");
    CHECK(engine.wait_exit() == 0);
}

TEST_CASE("nboard ping stops a search and pong comes after its output") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    CHECK(starts_with(*io.read_line(), "set myname "));
    io.send("set depth 60");
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
    CHECK(starts_with(*io.read_line(), "set myname "));
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
    io.send("analyze");
    const auto lines = io.read_until("analysis 0 ", 10s);
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "analysis "); }) == 9);
}

TEST_CASE("nboard GGF with passes") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    CHECK(starts_with(*io.read_line(), "set myname "));
    // Black must pass in this position (found by a random game); an explicit PA and an implied pass.
    const std::string board = "OOOOOXOOOOOOXXOOOXOOXXOOOXXOOXOOOXOOXOOOOOOOOXOOOOXXXXX-OXXXXXX- *";
    std::string spaced;
    for (char ch : board) spaced += ch == 'X' ? '*' : ch;
    io.send("set game (;GM[Othello]BO[8 " + spaced + "]B[PA]W[H8];)");
    io.send("set depth 2");
    io.send("set game (;GM[Othello]BO[8 " + spaced + "]W[H8];)");  // implied pass
    io.send("ping 1");
    const auto lines = io.read_until("pong 1");
    CHECK(lines.size() == 1);
}

namespace {

// "=== MV/eval/time" -> {"MV", "eval"}.
std::pair<std::string, std::string> move_and_eval(const std::string& answer) {
    const auto first = answer.find('/');
    const auto second = answer.find('/', first + 1);
    return {answer.substr(4, first - 4), answer.substr(first + 1, second - first - 1)};
}

// The (move, eval) of every iteration of a fresh engine's search of kGame, read from UCI info lines of
// `go depth max_depth` in NBoard's form: a search that is stopped runs the same iterations first (one
// thread, a fresh table: deterministic), so its answer must be one of these.
std::vector<std::pair<std::string, std::string>> iteration_answers(int max_depth) {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("position startpos moves f5 f6 d3 c5 e6 f7 e7 f4");
    io.send("go depth " + std::to_string(max_depth));
    const auto lines = io.read_until("bestmove ", 120s);
    REQUIRE(!lines.empty());
    std::vector<std::pair<std::string, std::string>> answers;
    for (const auto& l : lines) {
        const auto cp = l.find(" score cp ");
        const auto pv = l.find(" pv ");
        if (!starts_with(l, "info depth ") || cp == std::string::npos || pv == std::string::npos) continue;
        std::string move = l.substr(pv + 4, 2);
        for (char& c : move) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        char eval[32];
        std::snprintf(eval, sizeof eval, "%.2f", std::stoi(l.substr(cp + 10)) / 100.0);
        answers.emplace_back(move, eval);
    }
    REQUIRE(answers.size() == static_cast<std::size_t>(max_depth));
    return answers;
}

}  // namespace

TEST_CASE("nboard set myname is sent once, on entering NBoard mode, not after set depth") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    CHECK(starts_with(*io.read_line(), "set myname "));
    io.send("set depth 5");
    io.send("set depth 6");
    io.send("ping 1");
    CHECK(io.read_until("pong 1") == std::vector<std::string>{"pong 1"});
}

TEST_CASE("nboard ping with a number it cannot read is still answered, after an error line") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    CHECK(starts_with(*io.read_line(), "set myname "));
    for (const char* bad : {"-1", "1e3", "12345678901234567890"}) {
        io.send(std::string("ping ") + bad);
        const auto error = io.read_line();
        REQUIRE(error);
        CHECK_MESSAGE(starts_with(*error, "status error: ping"), *error);
        CHECK(io.read_line() == std::optional<std::string>(std::string("pong ") + bad));  // before: none
    }
    io.send("ping 4");
    CHECK(io.read_until("pong 4") == std::vector<std::string>{"pong 4"});
}

TEST_CASE("nboard: an overlong line is refused with an NBoard error line") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    CHECK(starts_with(*io.read_line(), "set myname "));
    io.send("set game " + std::string(70000, 'x'));
    const auto error = io.read_line();
    REQUIRE(error);
    CHECK_MESSAGE(starts_with(*error, "status error: line longer than"), *error);  // before: info string error
    io.send("ping 1");
    CHECK(io.read_until("pong 1") == std::vector<std::string>{"pong 1"});
}

TEST_CASE("nboard set contempt: 0 is accepted, anything else is refused clearly") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    CHECK(starts_with(*io.read_line(), "set myname "));
    io.send("set contempt 0");
    io.send("ping 1");
    CHECK(io.read_until("pong 1") == std::vector<std::string>{"pong 1"});
    for (const char* bad : {"set contempt 100", "set contempt -50", "set contempt x", "set contempt"}) {
        io.send(bad);
        const auto l = io.read_line();
        REQUIRE(l);
        CHECK_MESSAGE(starts_with(*l, "status error: set contempt"), bad << " -> " << *l);
    }
    io.send("set contempt 100");
    CHECK(io.read_line()->find("not supported") != std::string::npos);
}

TEST_CASE("nboard go stopped at once by ping answers the move and value of a completed iteration") {
    // Stopped at once, the search has completed a few iterations (it polls the stop flag every 1024
    // nodes); its answer must be exactly one of them, never a mix (the move of a stopped iteration with
    // the value of the previous one) nor a value of nothing. The depth is capped at the reference's: on a
    // loaded machine the ping can come late, and a deeper iteration would have no reference (with depth
    // 30 this failed now and then once the search got faster).
    constexpr int kMaxDepth = 10;
    const auto reference = iteration_answers(kMaxDepth);
    for (int round = 0; round < 5; ++round) {
        EngineProcess engine;
        auto& io = engine.io();
        io.send("nboard 2");
        io.send(std::string("set game ") + kGame);
        io.send("set depth " + std::to_string(kMaxDepth));
        io.send("go");
        io.send("ping 1");
        const auto lines = io.read_until("pong 1", 30s);
        REQUIRE(!lines.empty());
        const auto answer =
            std::find_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "=== "); });
        REQUIRE(answer != lines.end());
        const auto got = move_and_eval(*answer);
        const bool known = std::find(reference.begin(), reference.end(), got) != reference.end();
        CHECK_MESSAGE(known, "round " << round << ": " << *answer);
    }
}

TEST_CASE("nboard hint stopped at once by ping still sends its search lines") {
    EngineProcess engine;
    auto& io = engine.io();
    io.send("nboard 2");
    io.send(std::string("set game ") + kGame);
    io.send("set depth 30");
    io.send("hint 3");
    io.send("ping 1");
    const auto lines = io.read_until("pong 1", 30s);
    REQUIRE(!lines.empty());
    const auto searches =
        std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "search "); });
    CHECK(searches == 3);  // 3 of the legal moves, each with a completed depth (at least 1)
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "nodestats "); }) == 1);
}

TEST_CASE("nboard with stderr merged into stdout as the GUI starts it: every line is NBoard output") {
    // Default log level, stderr into the same pipe: a start-up log line would arrive as protocol.
    EngineProcess engine({}, false, true);
    auto& io = engine.io();
    const std::vector<std::string> commands{"nboard 2",
                                            "set depth 4",
                                            std::string("set game ") + kGame,
                                            "ping 1",
                                            "go",
                                            "ping 2",
                                            "move D6",
                                            "hint 3",
                                            "ping 3",
                                            "go",
                                            "ping 4",
                                            "learn",
                                            "set contempt 0",
                                            "set contempt 100",
                                            "move Z9",
                                            "frobnicate",
                                            "analyze",
                                            "ping 5",
                                            "hint 2",
                                            "quit"};
    for (const auto& cmd : commands) io.send(cmd);
    const std::regex valid(
        "set myname \\S+|status( .*)?|nodestats \\d+ \\d+\\.\\d\\d|search [A-H1-8PA]+ -?\\d+\\.\\d\\d 0 \\d+(@\\d+%)?"
        "|=== ([A-H][1-8]|PA)/-?\\d+\\.\\d\\d/\\d+\\.\\d\\d|pong \\d+|analysis \\d+ -?\\d+\\.\\d\\d|learned");
    std::vector<std::string> lines;
    while (auto l = io.read_line(60s)) lines.push_back(*l);
    CHECK(engine.wait_exit() == 0);
    CHECK(lines.size() > 10);
    for (const auto& l : lines) CHECK_MESSAGE(std::regex_match(l, valid), "not NBoard output: " << l);
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "=== "); }) == 2);
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& x) { return starts_with(x, "pong "); }) == 5);
}
