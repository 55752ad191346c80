// Unit tests of the protocol's parsers: tokens and numbers, go, setoption/options, position.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/board/notation.hpp"
#include "protocol/nboard/nboard_frontend.hpp"
#include "protocol/session/engine_options.hpp"
#include "protocol/text/printable.hpp"
#include "protocol/text/tokens.hpp"
#include "protocol/uci/info_format.hpp"
#include "protocol/uci/uci_commands.hpp"

using namespace reversi;

namespace {
Expected<uci::GoCommand> go(std::string_view line) {
    auto t = text::split_tokens(line);
    return uci::parse_go(t);
}
}  // namespace

TEST_CASE("tokens split on any whitespace and quote() is printable and bounded") {
    const auto t = text::split_tokens("  go\tdepth  5\r\n");
    REQUIRE(t.size() == 3);
    CHECK(t[0] == "go");
    CHECK(t[2] == "5");
    CHECK(text::split_tokens("").empty());
    CHECK(text::quote(std::string("a\x01\xff", 3)) ==
          "'a?"
          "?'");
    CHECK(text::quote(std::string(100, 'x')).size() == 40 + 2 + 3);
    CHECK(text::rest_after_tokens("set game (;GM[x] ;)  ", 2) == "(;GM[x] ;)");
}

TEST_CASE("printable(): what an output line repeats is printable, valid UTF-8 and bounded") {
    CHECK(text::printable("plain text, 100%") == "plain text, 100%");
    CHECK(text::printable("caf\xc3\xa9 \xe2\x82\xac") == "caf\xc3\xa9 \xe2\x82\xac");  // UTF-8 kept
    CHECK(text::printable(std::string("a\x01\x1b[31m\xff\xfe\0z", 11)) == "a??[31m???z");
    CHECK(text::printable("\xe2\x82") == "??");  // a character cut short
    const std::string cut = text::printable(std::string(5000, 'x'));
    CHECK(cut.size() == text::kMaxMessageBytes + 3);
    CHECK(cut.find_first_not_of('x') == text::kMaxMessageBytes);
    CHECK(cut.ends_with("..."));
    // Never cut inside a character: 3-byte characters, 10 bytes allowed.
    CHECK(text::printable("\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", 10) ==
          "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac...");
}

TEST_CASE("first_token is split_tokens' first token, or empty") {
    for (std::string_view line :
         {"", " ", "\t\r\n", "go", "  go\tdepth  5\r\n", "\vstop", "isready ", "a b c", "x\fy", "\x01 go"}) {
        CAPTURE(line);
        const auto tokens = text::split_tokens(line);
        CHECK(text::first_token(line) == (tokens.empty() ? std::string_view() : tokens[0]));
    }
}

TEST_CASE("parse_integer checks syntax and range") {
    CHECK(*text::parse_integer("42", 0, 100, "x") == 42);
    CHECK(*text::parse_integer("+7", 0, 100, "x") == 7);
    CHECK(*text::parse_integer("-3", -5, 5, "x") == -3);
    for (const char* bad : {"", "abc", "4x", "1.5", " 1", "101", "-1", "99999999999999999999"}) {
        auto v = text::parse_integer(bad, 0, 100, "go depth");
        CHECK_MESSAGE(!v, bad);
        if (!v) CHECK(v.error().message.rfind("go depth", 0) == 0);
    }
}

TEST_CASE("parse_go reads every parameter") {
    auto g =
        go("depth 7 nodes 1000 movetime 250 btime 60000 wtime 50000 binc 100 winc 200 movestogo 12 infinite "
           "solve wld algo mtdf searchmoves f5 d6 pass");
    REQUIRE(g);
    CHECK(*g->depth == 7);
    CHECK(*g->nodes == 1000);
    CHECK(*g->movetime_ms == 250);
    CHECK(*g->black_time_ms == 60000);
    CHECK(*g->white_time_ms == 50000);
    CHECK(g->black_inc_ms == 100);
    CHECK(g->white_inc_ms == 200);
    CHECK(*g->movestogo == 12);
    CHECK(g->infinite);
    CHECK(g->solve);
    CHECK(g->wld);
    CHECK(*g->algorithm == Algorithm::MtdF);
    CHECK(g->search_moves == std::vector<Move>{37, 43, kPass});
    auto neg = go("wtime -500 btime 10");
    REQUIRE(neg);
    CHECK(*neg->white_time_ms == 0);  // a fallen flag reads as 0
    CHECK(go("")->depth == std::nullopt);
    CHECK(!go("depth 3")->ponder);
    auto ponder = go("ponder btime 900 wtime 800 searchmoves f5 ponder");
    REQUIRE(ponder);
    CHECK(ponder->ponder);
    CHECK(*ponder->white_time_ms == 800);
    CHECK(ponder->search_moves == std::vector<Move>{37});  // ponder ends a searchmoves list
}

TEST_CASE("parse_go refuses bad input and names the token") {
    struct Case {
        const char* line;
        const char* needle;
    };
    for (const Case& c :
         {Case{"depth", "missing number"}, Case{"depth x", "'x'"}, Case{"depth 0", "out of range"},
          Case{"nodes 0", "out of range"}, Case{"movetime -1", "out of range"}, Case{"algo", "missing algorithm"},
          Case{"algo nope", "'nope'"}, Case{"searchmoves", "no moves"}, Case{"searchmoves z9", "'z9'"},
          Case{"fly", "unknown parameter 'fly'"}, Case{"movestogo 0", "out of range"}}) {
        auto g = go(c.line);
        REQUIRE_MESSAGE(!g, c.line);
        CHECK_MESSAGE(g.error().message.find(c.needle) != std::string::npos, g.error().message);
    }
}

TEST_CASE("setoption parsing and option assignment") {
    auto a = uci::parse_setoption(text::split_tokens("name Move Overhead value 5 0"));
    REQUIRE(a);
    CHECK(a->name == "Move Overhead");
    CHECK(a->value == "5 0");
    CHECK(!uci::parse_setoption(text::split_tokens("value 3")));
    CHECK(!uci::parse_setoption(text::split_tokens("name")));
    CHECK(!uci::parse_setoption(text::split_tokens("name Hash value")));

    const session::EngineOptions base;
    auto o = session::assign_option(base, "hash", "64");
    REQUIRE(o);
    CHECK(o->hash_mib == 64);
    CHECK(session::assign_option(base, "Threads", "4")->search.threads == 4);
    CHECK(session::assign_option(base, "Algorithm", "pvs")->search.algorithm == Algorithm::NegaScout);
    CHECK(session::assign_option(base, "Aspiration", "off")->search.aspiration == false);
    CHECK(session::assign_option(base, "TT", "false")->search.use_tt == false);
    CHECK(session::assign_option(base, "IterativeDeepening", "0")->search.iterative_deepening == false);
    CHECK(session::assign_option(base, "Ordering", "none")->search.ordering == MoveOrdering::None);
    CHECK(session::assign_option(base, "MultiPV", "5")->search.multipv == 5);
    CHECK(session::assign_option(base, "MoveOverhead", "0")->move_overhead_ms == 0);
    for (auto [n, v] : {std::pair{"Hash", "0"},
                        {"Hash", "65537"},
                        {"Threads", "0"},
                        {"Threads", "257"},
                        {"MultiPV", "65"},
                        {"MoveOverhead", "5001"},
                        {"Algorithm", "x"},
                        {"TT", "maybe"},
                        {"Ordering", "random"},
                        {"Nope", "1"},
                        {"Hash", ""},
                        {"Eval", "nn"},
                        {"EvalFile", ""}}) {
        CHECK_MESSAGE(!session::assign_option(base, n, v), n << "=" << v);
    }
    auto heuristic = session::assign_option(base, "eval", "Heuristic");
    REQUIRE(heuristic);
    CHECK(heuristic->search.evaluation == EvalKind::Heuristic);
    auto file = session::assign_option(base, "EvalFile", "/tmp/my weights.bin");
    REQUIRE(file);
    CHECK(file->eval_file == "/tmp/my weights.bin");
    CHECK(!base.ponder);
    auto ponder = session::assign_option(base, "ponder", "true");
    REQUIRE(ponder);
    CHECK(ponder->ponder);
    CHECK(!session::assign_option(base, "Ponder", "maybe"));
    const auto lines = session::option_lines(base);
    CHECK(lines.size() == 16);  // Ponder (the 13th) is the GUI's: it may send go ponder; then the 3 book options
    CHECK(std::count(lines.begin(), lines.end(), "option name Ponder type check default false") == 1);
}

TEST_CASE("setoption Selectivity: 50-100, the engine's default, errors name the option") {
    const session::EngineOptions base;
    CHECK(base.search.selectivity == kEngineSelectivityPercent);
    CHECK(kEngineSelectivityPercent < 100);  // on in the engine, off (100) in the library's SearchOptions
    CHECK(SearchOptions{}.selectivity == 100);
    CHECK(session::assign_option(base, "Selectivity", "73")->search.selectivity == 73);
    CHECK(session::assign_option(base, "selectivity", "100")->search.selectivity == 100);
    CHECK(session::assign_option(base, "Selectivity", "50")->search.selectivity == 50);
    for (const char* bad : {"49", "101", "0", "-5", "95%", "abc", "9 5"}) {
        const auto o = session::assign_option(base, "Selectivity", bad);
        REQUIRE_MESSAGE(!o, bad);
        CHECK_MESSAGE(o.error().message.find("setoption Selectivity") != std::string::npos, o.error().message);
    }
    const auto lines = session::option_lines(base);
    CHECK(std::find(lines.begin(), lines.end(),
                    "option name Selectivity type spin default " + std::to_string(kEngineSelectivityPercent) +
                        " min 50 max 100") != lines.end());
}

TEST_CASE("setoption Book BookFile BookRandomness: switch, path, 0-64") {
    const session::EngineOptions base;
    CHECK(base.book);
    CHECK(base.book_file.empty());
    CHECK(base.book_randomness == 0);
    CHECK_FALSE(session::assign_option(base, "Book", "false")->book);
    CHECK(session::assign_option(base, "bookfile", "/tmp/my book.bin")->book_file == "/tmp/my book.bin");
    auto with_file = session::assign_option(base, "BookFile", "a.book");
    REQUIRE(with_file);
    CHECK(session::assign_option(*with_file, "BookFile", "<empty>")->book_file.empty());
    CHECK(session::assign_option(base, "BookRandomness", "64")->book_randomness == 64);
    for (auto [n, v] :
         {std::pair{"Book", "maybe"}, {"BookFile", ""}, {"BookRandomness", "65"}, {"BookRandomness", "-1"}}) {
        CHECK_MESSAGE(!session::assign_option(base, n, v), n << "=" << v);
    }
    // A path with a NUL byte would open the file named by its first part: refused.
    for (const char* name : {"BookFile", "EvalFile"}) {
        const auto refused = session::assign_option(base, name, std::string_view("a.book\0x", 8));
        REQUIRE_FALSE(refused);
        CHECK(refused.error().message.find("NUL") != std::string::npos);
    }
    const auto lines = session::option_lines(base);
    CHECK(std::count(lines.begin(), lines.end(), "option name Book type check default true") == 1);
    CHECK(std::count(lines.begin(), lines.end(), "option name BookFile type string default <empty>") == 1);
    CHECK(std::count(lines.begin(), lines.end(), "option name BookRandomness type spin default 0 min 0 max 64") == 1);
}

TEST_CASE("NBoard depth field: 12@95% when selective, plain otherwise") {
    CHECK(nboard::nboard_depth(12, 95) == "12@95%");
    CHECK(nboard::nboard_depth(7, 73) == "7@73%");
    CHECK(nboard::nboard_depth(12, 100) == "12");
    CHECK(nboard::nboard_depth(24, 100) == "24");
}

TEST_CASE("parse_position: every form, and errors name the bad token") {
    auto p = uci::parse_position("position startpos moves f5 d6 c3");
    REQUIRE(p);
    CHECK(p->moves.size() == 3);
    CHECK(p->current == *play_transcript(start_position(), "f5d6c3"));
    CHECK(p->start == start_position());
    auto b = uci::parse_position("position board " + to_board_string(start_position()) + " moves f5");
    REQUIRE(b);
    CHECK(b->current == start_position().play(37));
    auto split =
        uci::parse_position("position board -------- -------- -------- ---OX--- ---XO--- -------- -------- -------- X");
    REQUIRE(split);
    CHECK(split->start == start_position());
    auto v = uci::parse_position("position variant 6x6 moves pass");
    CHECK(!v);  // no pass at the start
    auto v2 = uci::parse_position("position variant 4x4");
    REQUIRE(v2);
    CHECK(v2->start == start_position(Variant::Board4x4));
    auto o = uci::parse_position("position obf " + to_board_string(start_position()) + "; F5:+0; % comment");
    REQUIRE(o);
    CHECK(o->current == start_position());
    struct Case {
        const char* line;
        const char* needle;
    };
    for (const Case& c : {Case{"position", "expected startpos"}, Case{"position startpos moves f5 e6", "move 2 'e6'"},
                          Case{"position startpos moves f5 xx", "move 2 'xx'"},
                          Case{"position startpos junk", "'junk'"}, Case{"position board", "missing"},
                          Case{"position variant", "missing the variant"}, Case{"position variant 7x7", "'7x7'"},
                          Case{"position obf", "missing the OBF"}, Case{"position obf garbage", "position obf"}}) {
        auto r = uci::parse_position(c.line);
        REQUIRE_MESSAGE(!r, c.line);
        CHECK_MESSAGE(r.error().message.find(c.needle) != std::string::npos, r.error().message);
    }
}

TEST_CASE("parse_position: moves tokens may be concatenated transcripts") {
    const auto expected = *play_transcript(start_position(), "f5d6c3d3c4");
    for (const char* line : {"position startpos moves f5d6c3d3c4", "position startpos moves f5 d6c3 d3C4",
                             "position startpos moves F5D6C3 d3 c4"}) {
        auto p = uci::parse_position(line);
        REQUIRE_MESSAGE(p, line);
        CHECK(p->moves.size() == 5);
        CHECK(p->current == expected);
    }
    const std::string start = to_board_string(start_position());
    auto b = uci::parse_position("position board " + start + " moves f5d6 c3");
    REQUIRE(b);
    CHECK(b->current == *play_transcript(start_position(), "f5d6c3"));
    auto v = uci::parse_position("position variant 8x8 moves f5f6");
    REQUIRE(v);
    CHECK(v->current == *play_transcript(start_position(), "f5f6"));
    // 6x6: a transcript of the first legal move then the first legal reply.
    const Position six = start_position(Variant::Board6x6);
    const Move m1 = static_cast<Move>(*squares(six.moves()).begin());
    const Move m2 = static_cast<Move>(*squares(six.play(m1).moves()).begin());
    auto six_t = uci::parse_position("position variant 6x6 moves " + move_to_string(m1) + move_to_string(m2));
    REQUIRE(six_t);
    CHECK(six_t->moves == std::vector<Move>{m1, m2});
    struct Case {
        const char* line;
        const char* needle;
    };
    for (const Case& c : {Case{"position startpos moves f5d6e6", "move 3 'e6' (in 'f5d6e6'): illegal"},
                          Case{"position startpos moves f5 d6c3zz", "move 4 'zz' (in 'd6c3zz') is not a move"},
                          Case{"position startpos moves f5d6c", "move 3 'c' (in 'f5d6c') is not a move"},
                          Case{"position variant 6x6 moves a1", "move 1 'a1'"}}) {
        auto r = uci::parse_position(c.line);
        REQUIRE_MESSAGE(!r, c.line);
        CHECK_MESSAGE(r.error().message.find(c.needle) != std::string::npos, r.error().message);
    }
}

TEST_CASE("info lines carry the fields GUIs parse") {
    IterationReport r;
    r.depth = 5;
    r.selective_depth = 7;
    r.score = -3;
    r.bound = Bound::Lower;
    r.nodes = 5000;
    r.time = std::chrono::milliseconds(10);
    r.hashfull = 12;
    r.pv = {37, kPass, 43};
    r.multipv = 2;
    CHECK(uci::format_iteration(r, false) ==
          "info depth 5 seldepth 7 selectivity 100 score cp -300 lowerbound nodes 5000 nps 500000 time 10 hashfull 12 "
          "pv f5 pass d6");
    r.selectivity = 95;
    CHECK(uci::format_iteration(r, false).find("info depth 5 seldepth 7 selectivity 95 score cp -300 ") == 0);
    CHECK(uci::format_iteration(r, true).find(" multipv 2 score cp -300 ") != std::string::npos);
    r.bound = Bound::Upper;
    CHECK(uci::format_iteration(r, false).find(" score cp -300 upperbound nodes ") != std::string::npos);
    r.progress = true;  // a solve's periodic report: no score, no pv
    CHECK(uci::format_iteration(r, false) ==
          "info depth 5 seldepth 7 selectivity 95 nodes 5000 nps 500000 time 10 hashfull 12");
    SearchResult s;
    s.nodes = 9;
    s.leaves = 4;
    s.time = std::chrono::milliseconds(3);
    s.algorithm = Algorithm::Sss;
    CHECK(uci::format_stats(s) == "info string stats nodes 9 leaves 4 time 3 algo sss");
}
