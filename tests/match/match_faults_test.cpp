// Faulty engines lose their games with the right reason, are restarted, and the match completes.
#include <doctest/doctest.h>

#include "tests/match/match_harness.hpp"

using namespace reversi::match_test;

namespace {

// Four games (two colour pairs) of a faulty engine "bad" against a sound random mover "good".
RunResult faulty_match(const std::string& name, const std::vector<std::string>& bad_tokens) {
    const std::string dir = scratch_dir(name);
    std::vector<std::string> args = {"--engine", "name=bad"};
    args.insert(args.end(), bad_tokens.begin(), bad_tokens.end());
    const std::vector<std::string> rest = {
        "--engine",  "name=good", fake_uci("--seed 7"), "depth=1", "--games",         "4", "--concurrency", "2",
        "--timeout", "800",       "--random-openings",  "4",       "--balance-depth", "0", "--out",         dir + "/m",
        "--json"};
    args.insert(args.end(), rest.begin(), rest.end());
    return run_match(args, dir);
}

void check_all_forfeited(const RunResult& r, const std::string& reason) {
    INFO(r.out);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(json_field(r.out, "complete") == "true");
    CHECK(json_int(r.out, "games") == 4);
    CHECK(json_int(r.out, "losses") == 4);
    CHECK(json_field(r.out, "forfeits") == "{\"" + reason + " by bad\": 4}");
}

}  // namespace

TEST_CASE("faults: an engine that exits while a child of its own holds its output forfeits by crash") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    // Before: recorded as a hang, at the --timeout (60 s by default), the runner never looked at the process.
    check_all_forfeited(faulty_match("orphan", {fake_uci("--mode orphan --after 2"), "depth=1"}), "crash");
}

TEST_CASE("faults: a crashing engine forfeits every game by crash and is restarted") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    check_all_forfeited(faulty_match("crash", {fake_uci("--mode crash --after 2"), "depth=1"}), "crash");
}

TEST_CASE("faults: a hanging engine is killed after the timeout and forfeits by hang") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    check_all_forfeited(faulty_match("hang", {fake_uci("--mode hang --after 1"), "depth=1"}), "hang");
}

TEST_CASE("faults: an illegal move (occupied square) forfeits by illegal") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    check_all_forfeited(faulty_match("illegal", {fake_uci("--mode illegal --after 2"), "depth=1"}), "illegal");
}

TEST_CASE("faults: a pass while moves exist forfeits by illegal") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    check_all_forfeited(faulty_match("pass", {fake_uci("--mode pass --after 1"), "depth=1"}), "illegal");
}

TEST_CASE("faults: garbage instead of a move forfeits by garbage") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    check_all_forfeited(faulty_match("garbage", {fake_uci("--mode garbage --after 0"), "depth=1"}), "garbage");
}

TEST_CASE("faults: an endless line (2 MB without a newline) forfeits by garbage without eating memory") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    check_all_forfeited(faulty_match("flood", {fake_uci("--mode flood --after 1"), "depth=1"}), "garbage");
}

TEST_CASE("faults: a move after the flag (clock) and after movetime + margin forfeits on time") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    // 200 ms per move on a 0.3 s clock: the second move comes after the flag (+50 ms margin)
    check_all_forfeited(faulty_match("clock", {fake_uci("--mode slow --sleep-ms 200"), "tc=0.3", "timemargin=50"}),
                        "time");
    check_all_forfeited(
        faulty_match("movetime", {fake_uci("--mode slow --sleep-ms 200"), "movetime=100", "timemargin=50"}), "time");
}

TEST_CASE("faults: the game record keeps the reason, and a sound pair of engines has no forfeits") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    const std::string dir = scratch_dir("record");
    const auto r = run_match({"--engine", "name=bad", fake_uci("--mode illegal --after 3"), "depth=1", "--engine",
                              "name=good", fake_uci(), "depth=1", "--games", "2", "--out", dir + "/m"},
                             dir);
    CHECK(r.exit_code == 0);
    const auto ggf = read_lines(dir + "/m.ggf");
    REQUIRE(ggf.size() == 2);
    for (const auto& line : ggf) {
        CHECK(line.find("C[illegal by bad: illegal move") != std::string::npos);
        CHECK(line.find(":r]") != std::string::npos);
    }
    CHECK(check_ggf(dir + "/m.ggf") == 0);  // the moves before the forfeit are legal
    const auto log = read_lines(dir + "/m.log");
    REQUIRE(log.size() == 3);
    CHECK(log[1].find("reason illegal faulty 0") != std::string::npos);

    const std::string dir2 = scratch_dir("sound");
    const auto ok =
        run_match({"--engine", "name=a", fake_uci("--seed 1"), "depth=1", "--engine", "name=b", fake_uci("--seed 2"),
                   "depth=1", "--games", "4", "--random-openings", "6", "--out", dir2 + "/m", "--json"},
                  dir2);
    CHECK(ok.exit_code == 0);
    CHECK(json_field(ok.out, "forfeits") == "{}");
    CHECK(json_int(ok.out, "margin_games") == 4);
}

TEST_CASE("faults: an engine that cannot start stops the match with a clear error") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    const std::string dir = scratch_dir("nostart");
    const auto r = run_match({"--engine", "name=dead", fake_uci("--mode nostart"), "depth=1", "--engine", "name=good",
                              fake_uci(), "depth=1", "--games", "2", "--out", dir + "/m"},
                             dir);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("cannot start engine dead") != std::string::npos);
    const auto missing = run_match({"--engine", "name=x", "cmd=/nonexistent/engine", "depth=1", "--engine", "name=good",
                                    fake_uci(), "depth=1", "--out", dir + "/m2"},
                                   dir);
    CHECK(missing.exit_code == 1);
    CHECK(missing.err.find("No such file") != std::string::npos);
    // A working directory that does not exist is named as such (before: "cannot start 'python3': No such file").
    const auto no_dir = run_match({"--engine", "name=x", fake_uci(), "dir=/nonexistent/folder", "depth=1", "--engine",
                                   "name=good", fake_uci(), "depth=1", "--out", dir + "/m3"},
                                  dir);
    CHECK(no_dir.exit_code == 1);
    CHECK_MESSAGE(no_dir.err.find("cannot enter the working directory '/nonexistent/folder'") != std::string::npos,
                  no_dir.err);
}
