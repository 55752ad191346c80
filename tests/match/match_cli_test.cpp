// Openings (files, XOT, balanced random), SPRT stopping and command-line errors, through the binary.
#include <doctest/doctest.h>

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/search/searcher.hpp"
#include "tests/match/match_harness.hpp"
#include "tests/support/random_positions.hpp"
#include "tools/match/sprt.hpp"

using namespace reversi;
using namespace reversi::match_test;

#define REQUIRE_PYTHON()                       \
    if (!have_python()) {                      \
        MESSAGE("python3 not found: skipped"); \
        return;                                \
    }

namespace {

// The GGF line of game number n.
std::string game_line(const std::vector<std::string>& ggf, int n) {
    const std::string tag = "GN[" + std::to_string(n) + "]";
    for (const auto& l : ggf) {
        if (l.find(tag) != std::string::npos) return l;
    }
    return "";
}

// The moves of a GGF line before the first one with an eval/time: the opening's moves.
std::string opening_moves(const std::string& line) {
    std::string out;
    std::size_t pos = 0;
    while ((pos = line.find("[", pos)) != std::string::npos) {
        const auto end = line.find(']', pos);
        const std::string tag = line.substr(pos - 1, 1);
        const std::string value = line.substr(pos + 1, end - pos - 1);
        if ((tag == "B" || tag == "W") && line[pos - 2] != 'P' && line[pos - 2] != 'R') {
            if (value.find('/') != std::string::npos) break;
            out += value;
        }
        pos = end;
    }
    return out;
}

// Two fake UCI engines, a and b, with different seeds, at depth 1.
std::vector<std::string> two_fake_engines() {
    return {"--engine", "name=a", fake_uci("--seed 1"), "depth=1",
            "--engine", "name=b", fake_uci("--seed 2"), "depth=1"};
}

}  // namespace

TEST_CASE("openings: a file of transcripts and board strings, each played twice with colours swapped") {
    REQUIRE_PYTHON();
    const std::string dir = scratch_dir("openings");
    // a board string: the position after f5 d6 (black to move)
    const std::string board = to_board_string(*play_transcript(start_position(), "f5d6"));
    std::string ggf_board = board;
    for (char& c : ggf_board) {
        if (c == 'X') c = '*';
    }
    {
        std::ofstream f(dir + "/openings.txt");
        f << "# comment\n\nf5d6c3\n  f5 d6 c3 d3  \n% another comment\n" << board << "\n";
    }
    const auto r = run_match(
        {"--engine", "name=a", fake_uci("--seed 1"), "depth=1", "--engine", "name=b", fake_uci("--seed 2"), "depth=1",
         "--games", "8", "--openings", dir + "/openings.txt", "--out", dir + "/m", "--json", "--progress", "on"},
        dir);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("games 8/8  W/D/L ") != std::string::npos);  // the progress line, forced on
    const auto ggf = read_lines(dir + "/m.ggf");
    REQUIRE(ggf.size() == 8);
    CHECK(opening_moves(game_line(ggf, 0)) == "F5D6C3");
    CHECK(opening_moves(game_line(ggf, 1)) == "F5D6C3");
    CHECK(opening_moves(game_line(ggf, 2)) == "F5D6C3D3");
    CHECK(game_line(ggf, 4).find("BO[8 " + ggf_board + "]") != std::string::npos);
    CHECK(game_line(ggf, 5).find("BO[8 " + ggf_board + "]") != std::string::npos);
    CHECK(opening_moves(game_line(ggf, 4)).empty());
    CHECK(opening_moves(game_line(ggf, 6)) == "F5D6C3");  // three openings, four pairs: the list repeats
    CHECK(game_line(ggf, 0).find("PB[a]PW[b]") != std::string::npos);
    CHECK(game_line(ggf, 1).find("PB[b]PW[a]") != std::string::npos);
    CHECK(check_ggf(dir + "/m.ggf") == 0);

    {
        std::ofstream f(dir + "/bad.txt");
        f << "f5d6\n\nf5f5\n";
    }
    const auto bad = run_match({"--engine", "name=a", fake_uci(), "depth=1", "--engine", "name=b", fake_uci(),
                                "depth=1", "--openings", dir + "/bad.txt", "--out", dir + "/m2"},
                               dir);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("bad.txt:3:") != std::string::npos);
}

TEST_CASE("openings: --opening-offset skips the first openings of the order, so parts of a match play the whole's") {
    REQUIRE_PYTHON();
    const std::string dir = scratch_dir("offset");
    {
        std::ofstream f(dir + "/openings.txt");
        f << "f5d6c3\nf5f6e6\nf5d6c5\nf5f4e3\nf5d6c4\n";
    }
    auto play = [&](const std::string& out, const std::string& games, const std::vector<std::string>& extra) {
        std::vector<std::string> args = two_fake_engines();
        args.insert(args.end(), {"--games", games, "--openings", dir + "/openings.txt", "--opening-order", "random",
                                 "--seed", "5", "--out", dir + "/" + out});
        args.insert(args.end(), extra.begin(), extra.end());
        return run_match(args, dir);
    };
    const auto whole = play("whole", "10", {});
    REQUIRE(whole.exit_code == 0);
    const auto part = play("part", "4", {"--opening-offset", "3"});
    INFO(part.err);
    REQUIRE(part.exit_code == 0);
    const auto w = read_lines(dir + "/whole.ggf");
    const auto p = read_lines(dir + "/part.ggf");
    REQUIRE(w.size() == 10);
    REQUIRE(p.size() == 4);
    for (int n = 0; n < 4; ++n) {
        CAPTURE(n);
        CHECK(!opening_moves(game_line(p, n)).empty());
        CHECK(opening_moves(game_line(p, n)) == opening_moves(game_line(w, n + 6)));  // pairs 3 and 4 of the whole
    }
    CHECK(opening_moves(game_line(w, 0)) != opening_moves(game_line(p, 0)));
    std::ifstream log(dir + "/part.log");
    std::string header;
    std::getline(log, header);
    CHECK(header.find("offset=3") != std::string::npos);

    const auto past = play("past", "2", {"--opening-offset", "5"});
    CHECK(past.exit_code == 2);
    CHECK(past.err.find("--opening-offset 5: there are only 5 openings") != std::string::npos);
    const auto negative = play("negative", "2", {"--opening-offset", "-1"});
    CHECK(negative.exit_code == 2);
}

TEST_CASE("openings: the XOT list from the shared data") {
    REQUIRE_PYTHON();
    const std::string data = testing::shared_data_dir();
    const std::string xot = data + "/openings/xot/openingssmall.txt";
    if (data.empty() || !fs::exists(xot)) {
        MESSAGE("shared XOT data not found: skipped");
        return;
    }
    const std::string dir = scratch_dir("xot");
    const auto r = run_match({"--engine", "name=a", fake_uci("--seed 1"), "depth=1", "--engine", "name=b",
                              fake_uci("--seed 2"), "depth=1", "--games", "4", "--openings", xot, "--out", dir + "/m"},
                             dir);
    REQUIRE(r.exit_code == 0);
    const auto lines = read_lines(xot);
    REQUIRE(lines.size() >= 2);
    auto upper = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return s;
    };
    const auto ggf = read_lines(dir + "/m.ggf");
    CHECK(opening_moves(game_line(ggf, 0)) == upper(lines[0]));
    CHECK(opening_moves(game_line(ggf, 3)) == upper(lines[1]));
}

TEST_CASE("openings: random openings are distinct and within +-K discs of the balancing search") {
    REQUIRE_PYTHON();
    const std::string dir = scratch_dir("random");
    const auto r = run_match({"--engine",
                              "name=a",
                              fake_uci("--seed 1"),
                              "depth=1",
                              "--engine",
                              "name=b",
                              fake_uci("--seed 2"),
                              "depth=1",
                              "--games",
                              "12",
                              "--random-openings",
                              "6",
                              "--balance",
                              "2",
                              "--balance-depth",
                              "3",
                              "--seed",
                              "9",
                              "--out",
                              dir + "/m"},
                             dir);
    REQUIRE(r.exit_code == 0);
    const auto ggf = read_lines(dir + "/m.ggf");
    std::map<std::string, int> uses;
    Searcher searcher(1);
    std::atomic<bool> stop{false};
    for (int n = 0; n < 12; ++n) {
        const std::string moves = opening_moves(game_line(ggf, n));
        CHECK(moves.size() == 12);  // six plies
        ++uses[moves];
        auto pos = play_transcript(start_position(), moves);
        REQUIRE(pos.has_value());
        SearchLimits limits;
        limits.depth = 3;
        const int score = searcher.search(*pos, limits, {}, stop).score;
        CHECK(score >= -2);
        CHECK(score <= 2);
    }
    CHECK(uses.size() == 6);
    for (const auto& [moves, n] : uses) CHECK(n == 2);
}

TEST_CASE("sprt: the match stops as soon as the test decides") {
    REQUIRE_PYTHON();
    const std::string dir = scratch_dir("sprt");
    const auto r = run_match(
        {"--engine", "name=bad", fake_uci("--mode illegal --after 0"), "depth=1", "--engine", "name=good", fake_uci(),
         "depth=1", "--games", "200", "--concurrency", "1", "--sprt", "0,50,0.05,0.05", "--out", dir + "/m", "--json"},
        dir);
    CHECK(r.exit_code == 0);
    CHECK(json_field(r.out, "complete") == "true");
    CHECK(json_int(r.out, "games") == 2 * match::kSprtMinPairs);  // the minimum of pairs, all lost: zero variance
    CHECK(json_field(r.out, "sprt").find("\"decision\": \"H0\"") != std::string::npos);
    CHECK(r.err.find("can never reach it") == std::string::npos);
    // Fewer games than the minimum of pairs: the test cannot decide, and the runner says so.
    const auto few = run_match(
        {"--engine", "name=bad", fake_uci("--mode illegal --after 0"), "depth=1", "--engine", "name=good", fake_uci(),
         "depth=1", "--games", "4", "--concurrency", "1", "--sprt", "0,50,0.05,0.05", "--out", dir + "/few", "--json"},
        dir);
    CHECK(few.exit_code == 0);
    CHECK_MESSAGE(few.err.find("4 games can never reach it") != std::string::npos, few.err);
}

TEST_CASE("cli: help, version and clear errors") {
    const std::string dir = scratch_dir("cli");
    const auto help = run_match({"--help"}, dir);
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("--engine") != std::string::npos);
    CHECK(run_match({"--version"}, dir).exit_code == 0);
    const auto one = run_match({"--engine", "cmd=x", "depth=1"}, dir);
    CHECK(one.exit_code == 2);
    CHECK(one.err.find("two --engine") != std::string::npos);
    const auto key = run_match({"--engine", "cmd=x", "depth=1", "colour=red", "--engine", "cmd=x", "depth=1"}, dir);
    CHECK(key.exit_code == 2);
    CHECK(key.err.find("unknown key 'colour'") != std::string::npos);
    const auto limit = run_match({"--engine", "cmd=x", "--engine", "cmd=x", "depth=1"}, dir);
    CHECK(limit.exit_code == 2);
    CHECK(limit.err.find("give a limit") != std::string::npos);
    const auto depth = run_match({"--each", "cmd=x", "depth=99", "--engine", "--engine"}, dir);
    CHECK(depth.exit_code == 2);
    CHECK(depth.err.find("depth=99") != std::string::npos);
    const auto sprt = run_match({"--each", "cmd=x", "depth=1", "--engine", "--engine", "--sprt", "5,0,0.05,0.05"}, dir);
    CHECK(sprt.exit_code == 2);
    CHECK(sprt.err.find("ELO0 < ELO1") != std::string::npos);
    const auto clock = run_match({"--each", "cmd=x", "tc=fast", "--engine", "--engine"}, dir);
    CHECK(clock.exit_code == 2);
    CHECK(clock.err.find("bad clock") != std::string::npos);
    // A name with a line break would split the log's header line (a match that could not be resumed).
    const auto name = run_match({"--each", "cmd=x", "depth=1", "--engine", "name=a\nb", "--engine"}, dir);
    CHECK(name.exit_code == 2);
    CHECK(name.err.find("a name is printable UTF-8 text") != std::string::npos);
    // An NBoard engine on a small board: refused (NBoard games are 8x8; before, it lost every game as illegal).
    const auto nboard = run_match(
        {"--each", "cmd=x", "depth=1", "--engine", "name=n", "proto=nboard", "--engine", "--variant", "6x6"}, dir);
    CHECK(nboard.exit_code == 2);
    CHECK(nboard.err.find("engine n speaks NBoard") != std::string::npos);
}

TEST_CASE("variants: a 6x6 game is written to the GGF file as a 6x6 board, and replays there") {
    const std::string dir = scratch_dir("variant-ggf");
    const std::string engine = "cmd=" + engine_binary();
    const auto r = run_match({"--engine", "name=a", engine, "depth=1", "--engine", "name=b", engine, "depth=2",
                              "--variant", "6x6", "--games", "2", "--random-openings", "2", "--out", dir + "/m"},
                             dir);
    REQUIRE(r.exit_code == 0);
    const auto games = read_lines(dir + "/m.ggf");
    REQUIRE(games.size() == 2);
    for (const auto& game : games) {
        CAPTURE(game);
        // Before: TY[8]BO[8 ...] with the 8x8 board's coordinates, which no GGF reader replays as 6x6.
        const auto bo = game.find("TY[6]BO[6 ");
        REQUIRE(bo != std::string::npos);
        const std::string board = game.substr(bo + 10, 36);
        reversi::Position pos = reversi::start_position(reversi::Variant::Board6x6);
        // The 6x6 board's a1 is b2 of the 8x8 one.
        CHECK(board == "--------------O*----*O--------------");
        int moves = 0;
        for (auto at = game.find("[", bo + 10); at != std::string::npos; at = game.find("[", at + 1)) {
            const char colour = game[at - 1];
            if ((colour != 'B' && colour != 'W') || game[at - 2] == 'P') continue;  // not B[...] or W[...]
            const std::string square = game.substr(at + 1, game.find_first_of("/]", at) - at - 1);
            if (square == "PA") {
                CHECK(pos.must_pass());
                pos = pos.pass();
                continue;
            }
            REQUIRE(square.size() == 2);
            const int file = square[0] - 'A', rank = square[1] - '1';
            REQUIRE((file >= 0 && file < 6 && rank >= 0 && rank < 6));
            const auto next = reversi::apply_move(pos, static_cast<reversi::Move>((rank + 1) * 8 + file + 1));
            REQUIRE_MESSAGE(next.has_value(), square);
            pos = *next;
            ++moves;
        }
        CHECK(pos.is_over());
        const int black = pos.side == reversi::Color::Black ? pos.final_score() : -pos.final_score();
        const auto re = game.find("RE[");
        CHECK(std::atoi(game.c_str() + re + 3) == black);
        CHECK(moves > 20);
    }
}
