// Unit tests of the protocol's components: time manager, GGF parser, line splitter, stoppable perft,
// memory budget.
#include <doctest/doctest.h>

#include <map>
#include <random>

#include "engine/board/notation.hpp"
#include "engine/board/perft.hpp"
#include "protocol/nboard/ggf.hpp"
#include "protocol/session/memory_budget.hpp"
#include "protocol/session/stoppable_perft.hpp"
#include "protocol/time/time_manager.hpp"
#include "protocol/transport/line_splitter.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using std::chrono::milliseconds;

TEST_CASE("time manager: no clock means no limit, and movetime is exact minus the overhead") {
    timing::ClockState c;
    auto t = timing::plan_move_time(c);
    CHECK(!t.soft);
    CHECK(!t.hard);
    c.movetime_ms = 1000;
    c.overhead_ms = 30;
    t = timing::plan_move_time(c);
    CHECK(*t.hard == milliseconds(970));
    c.movetime_ms = 10;
    CHECK(*timing::plan_move_time(c).hard == milliseconds(1));
}

TEST_CASE("time manager: limits stay inside the clock for every clock and board") {
    std::mt19937_64 rng(1);
    for (int i = 0; i < 20000; ++i) {
        timing::ClockState c;
        c.remaining_ms = static_cast<std::int64_t>(rng() % 600000);
        c.increment_ms = static_cast<std::int64_t>(rng() % 5000);
        if (rng() % 2) c.movestogo = 1 + static_cast<int>(rng() % 60);
        c.empties = static_cast<int>(rng() % 61);
        c.overhead_ms = static_cast<std::int64_t>(rng() % 200);
        const auto t = timing::plan_move_time(c);
        REQUIRE(t.soft);
        REQUIRE(t.hard);
        CHECK(*t.soft <= *t.hard);
        CHECK(t.soft->count() >= 1);
        const std::int64_t available = std::max<std::int64_t>(0, *c.remaining_ms - c.overhead_ms);
        // Never more than half of what is left after the overhead (1 ms at the very least).
        CHECK(t.hard->count() <= std::max<std::int64_t>(1, available / 2));
    }
}

TEST_CASE("time manager: more time and fewer moves to go give more time") {
    timing::ClockState c;
    c.remaining_ms = 60000;
    c.empties = 40;
    const auto base = timing::plan_move_time(c);
    c.remaining_ms = 120000;
    CHECK(*timing::plan_move_time(c).soft > *base.soft);
    c.remaining_ms = 60000;
    c.increment_ms = 2000;
    CHECK(*timing::plan_move_time(c).soft > *base.soft);
    c.increment_ms = 0;
    c.movestogo = 2;
    CHECK(*timing::plan_move_time(c).soft > *base.soft);
    // A whole game of sudden death: the clock is never exhausted even when every move uses the hard limit.
    std::int64_t clock = 10000;
    for (int empties = 60; empties > 0; empties -= 2) {
        timing::ClockState g;
        g.remaining_ms = clock;
        g.empties = empties;
        g.overhead_ms = 0;
        clock -= timing::plan_move_time(g).hard->count();
        CHECK(clock > 0);
    }
}

TEST_CASE("time manager: in sudden death the endgame band gets the larger shares, the cheap moves the least") {
    // A game of sudden death from 52 empties where every move uses its soft limit: the moves at 19-26
    // empties get about kEndgameWeight / kMidgameWeight times a midgame move, the cheap ones almost nothing,
    // and the reserve is still on the clock at the end.
    std::int64_t clock = 1000;
    std::map<int, std::int64_t> soft;
    for (int empties = 52; empties > 0; empties -= 2) {
        timing::ClockState g;
        g.remaining_ms = clock;
        g.empties = empties;
        g.overhead_ms = 0;
        const auto t = timing::plan_move_time(g);
        soft[empties] = t.soft->count();
        CHECK(*t.soft <= *t.hard);
        clock -= t.soft->count();
    }
    CHECK(soft[24] >= 2 * soft[40]);
    CHECK(soft[20] >= 2 * soft[30]);
    CHECK(soft[40] >= soft[52]);  // the shares do not shrink through the midgame
    CHECK(soft[8] < soft[40]);
    CHECK(clock > 100);
    CHECK(clock < 400);
    CHECK(timing::costly_weight_left(52) ==
          4 * timing::kEndgameWeight + (20 - 4) * timing::kMidgameWeight);  // 52, 50, ..., 14: 20 moves
    CHECK(timing::costly_weight_left(12) == 0);
}

namespace {
const char* kStart = "---------------------------O*------*O--------------------------- *";
}

TEST_CASE("GGF: a game from NBoard, tags and moves with eval/time") {
    const std::string game = std::string("(;GM[Othello]PC[NBoard]PB[a\\]b]PW[c]RE[?]TI[15:00]TY[8]BO[8 ") + kStart +
                             "]B[F5]W[f6/-1.5/0.2]B[E6//3]W[F4];)";
    auto g = nboard::parse_ggf(game);
    REQUIRE(g);
    CHECK(g->moves.size() == 4);
    CHECK(g->start == start_position());
    CHECK(g->current == *play_transcript(start_position(), "f5f6e6f4"));
    CHECK(g->tags.at("PB") == "a]b");
    CHECK(g->tags.at("TI") == "15:00");
    // Squares in groups of 8, as some writers do.
    auto spaced = nboard::parse_ggf(
        "(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)");
    REQUIRE(spaced);
    CHECK(spaced->current == start_position());
}

TEST_CASE("GGF: explicit and implied passes") {
    const std::string board = "OOOOOXOOOOOOXXOOOXOOXXOOOXXOOXOOOXOOXOOOOOOOOXOOOOXXXXX-OXXXXXX- *";
    std::string bo;
    for (char c : board) bo += c == 'X' ? '*' : c;
    auto explicit_pass = nboard::parse_ggf("(;GM[Othello]BO[8 " + bo + "]B[PA]W[H8];)");
    REQUIRE(explicit_pass);
    CHECK(explicit_pass->moves == std::vector<Move>{kPass, 63});
    auto implied = nboard::parse_ggf("(;GM[Othello]BO[8 " + bo + "]W[h8];)");
    REQUIRE(implied);
    CHECK(implied->moves == std::vector<Move>{kPass, 63});
    CHECK(implied->current == explicit_pass->current);
}

TEST_CASE("GGF: malformed games are refused with a message saying where") {
    const std::string bo = std::string("BO[8 ") + kStart + "]";
    struct Case {
        std::string text;
        const char* needle;
    };
    for (const Case& c :
         {Case{"", "starts with"}, Case{"(;GM[Othello]" + bo + "B[F5]", "unterminated"},
          Case{"(;GM[Go]" + bo + ";)", "not an Othello game"}, Case{"(;GM[Othello]BO[10 x];)", "only 8x8"},
          Case{"(;GM[Othello]" + bo + "B[A1];)", "move 1"}, Case{"(;GM[Othello]" + bo + "B[F5]B[F6];)", "move 2"},
          Case{"(;GM[Othello]" + bo + "W[F5];)", "white moves but black is to move"},
          Case{"(;GM[Othello]B[F5]" + bo + ";)", "before the board"}, Case{"(;GM[Othello];)", "no board"},
          Case{std::string("(;GM[Othello]BO[8 ") + kStart + ";)", "not closed"},
          Case{"(;GM[Othello]" + bo + bo + ";)", "second BO"}, Case{"(;GM[Othello]" + bo + "B[zz];)", "not a move"},
          Case{"(;GM[Othello]" + bo + "!!;)", "unexpected"}, Case{"(;GM[Othello]" + bo + "XY;)", "has no [value]"},
          Case{"(;GM[Othello]BO[8 ---];)", "BO"}}) {
        auto g = nboard::parse_ggf(c.text);
        REQUIRE_MESSAGE(!g, c.text);
        CHECK_MESSAGE(g.error().message.find(c.needle) != std::string::npos, g.error().message);
    }
}

TEST_CASE("line splitter: LF and CRLF, pieces, overlong lines, a last line without newline") {
    transport::LineSplitter s(10);
    std::vector<std::string> lines;
    int overlong = 0;
    const auto on_line = [&](std::string_view l) { lines.emplace_back(l); };
    const auto on_over = [&] { ++overlong; };
    s.feed("ab", on_line, on_over);
    s.feed("c\r\nde\n", on_line, on_over);
    s.feed("0123456789X", on_line, on_over);  // 11 bytes: overlong
    s.feed("YZ\nok\n", on_line, on_over);
    // append, not +: GCC 12's -Warray-bounds false positive on the moved string (TSan build).
    s.feed(std::string(25, 'q').append("\nlast"), on_line, on_over);
    s.finish(on_line);
    CHECK(lines == std::vector<std::string>{"abc", "de", "ok", "last"});
    CHECK(overlong == 2);
    transport::LineSplitter exact(3);
    std::vector<std::string> e;
    exact.feed(
        "abc\nabcd\n", [&](std::string_view l) { e.emplace_back(l); }, on_over);
    CHECK(e == std::vector<std::string>{"abc"});
}

TEST_CASE("stoppable perft agrees with the engine's perft on random positions and stops") {
    const std::atomic<bool> go{false};
    for (const Position& p : testing::random_positions(Variant::Standard, 60, 11)) {
        CHECK(session::stoppable_perft(p, 4, go) == perft(p, 4));
    }
    for (const Position& p : testing::random_positions(Variant::Board6x6, 20, 12)) {
        CHECK(session::stoppable_perft(p, 5, go) == perft(p, 5));
    }
    CHECK(session::stoppable_perft(start_position(), 8, go) == 390216u);
    const std::atomic<bool> stop{true};
    CHECK(!session::stoppable_perft(start_position(), 12, stop));
}

TEST_CASE("memory budget reserves and releases") {
    session::MemoryBudget b(100);
    CHECK(b.reserve(60));
    CHECK(!b.reserve(41));
    CHECK(b.reserve(40));
    CHECK(b.available() == 0);
    b.release(50);
    CHECK(b.available() == 50);
    b.release(1000);
    CHECK(b.available() == 100);
}
