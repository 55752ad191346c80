// The runner ponders as a GUI does for an engine given ponder=true: go ponder after its move, then
// ponderhit or stop (its bestmove discarded) before the normal position/go; the transcript shows it.
#include <doctest/doctest.h>

#include "tests/match/match_harness.hpp"
#include "tests/support/text_checks.hpp"

using namespace reversi::match_test;
using reversi::testing::count_prefix;

TEST_CASE("ponder: a clock match with ponder=true on one engine plays without forfeits and ponders") {
    const std::string dir = scratch_dir("ponder");
    const std::string cmd = "cmd=" + engine_binary();
    const auto r = run_match({"--engine",
                              "name=ponder",
                              cmd,
                              "tc=3+0.03",
                              "ponder=true",
                              "transcript=" + dir + "/ponder.txt",
                              "--engine",
                              "name=plain",
                              cmd,
                              "tc=3+0.03",
                              "transcript=" + dir + "/plain.txt",
                              "--games",
                              "2",
                              "--random-openings",
                              "8",
                              "--balance-depth",
                              "0",
                              "--seed",
                              "5",
                              "--concurrency",
                              "1",
                              "--out",
                              dir + "/m",
                              "--json"},
                             dir);
    INFO(r.out);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(json_int(r.out, "games") == 2);
    CHECK(json_field(r.out, "forfeits") == "{}");
    const auto sent = read_lines(dir + "/ponder.txt");
    CHECK(count_prefix(sent, "> setoption name Ponder value true") == 1);
    const int ponders = count_prefix(sent, "> go ponder btime ");
    const int hits = count_prefix(sent, "> ponderhit");
    const int stops = count_prefix(sent, "> stop");
    CHECK(ponders >= 10);            // after (nearly) every own move of both games
    CHECK(hits >= 1);                // some replies were the expected ones ...
    CHECK(hits + stops == ponders);  // ... and every pondering ended by ponderhit or stop
    // One bestmove per go: a pondering that was stopped is answered too (and was read before the next go).
    CHECK(count_prefix(sent, "< bestmove ") == count_prefix(sent, "> go "));
    CHECK(count_prefix(sent, "< bestmove ") > 0);
    const auto other = read_lines(dir + "/plain.txt");
    CHECK(count_prefix(other, "> go ponder") == 0);  // only the engine given ponder=true ponders
    CHECK(count_prefix(other, "> go btime ") > 10);
    if (have_python()) CHECK(check_ggf(dir + "/m.ggf") == 0);
}

TEST_CASE("ponder: bad ponder= values and pondering NBoard engines are refused") {
    const std::string dir = scratch_dir("ponder-bad");
    const std::string cmd = "cmd=" + engine_binary();
    auto r =
        run_match({"--engine", cmd, "depth=1", "ponder=yes", "--engine", cmd, "depth=1", "--out", dir + "/m"}, dir);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("ponder=yes: expected true or false") != std::string::npos);
    r = run_match(
        {"--engine", cmd, "proto=nboard", "depth=1", "ponder=true", "--engine", cmd, "depth=1", "--out", dir + "/m"},
        dir);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("ponder=true needs proto=uci") != std::string::npos);
}
