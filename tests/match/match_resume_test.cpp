// An interrupted match resumes from its files with nothing lost and nothing counted twice.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "tests/match/match_harness.hpp"

using namespace reversi::match_test;

namespace {

// Deterministic engines (a move is a hash of the position), so every game's result depends only on
// its number: an interrupted and resumed match must end with exactly the uninterrupted counts.
// `a_extra`: more options of engine a's fake (its answers stay the same).
std::vector<std::string> match_args(const std::string& prefix, const std::string& a_extra = "", int games = 24,
                                    int concurrency = 2) {
    return {"--engine",
            "name=a",
            fake_uci("--seed 11 " + a_extra),
            "depth=1",
            "--engine",
            "name=b",
            fake_uci("--seed 12"),
            "depth=1",
            "--games",
            std::to_string(games),
            "--concurrency",
            std::to_string(concurrency),
            "--random-openings",
            "6",
            "--balance-depth",
            "2",
            "--seed",
            "5",
            "--out",
            prefix,
            "--json"};
}

}  // namespace

TEST_CASE("resume: kill the runner mid-match, resume, interrupt, resume, and the counts equal an uninterrupted run") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    const std::string full_dir = scratch_dir("resume-full");
    const auto full = run_match(match_args(full_dir + "/m"), full_dir);
    REQUIRE(full.exit_code == 0);
    REQUIRE(json_int(full.out, "games") == 24);

    const std::string dir = scratch_dir("resume-cut");
    const std::string prefix = dir + "/m";
    const pid_t pid = start_match(match_args(prefix), dir);
    // Wait for some games (header + 6 results), then kill it without warning.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (complete_lines(prefix + ".log") < 7 && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid, SIGKILL);
    const auto killed = wait_match(pid, dir);
    CHECK(killed.exit_code == 128 + SIGKILL);
    const int recorded = complete_lines(prefix + ".log") - 1;
    INFO("games recorded before the kill: " << recorded);
    CHECK(recorded >= 6);
    CHECK(recorded < 24);

    // Make the damage of a kill at the worst moments explicit: a torn last log line, a GGF game that was
    // written without its log line, and a GGF game written twice.
    const auto ggf_before = read_lines(prefix + ".ggf");
    REQUIRE(!ggf_before.empty());
    {
        std::ofstream ggf(prefix + ".ggf", std::ios::app);
        ggf << ggf_before[0] << "\n"
            << "(;GM[Othello]GN[23]BO[8 " << std::string(64, '-') << " *];)\n";
        std::ofstream log(prefix + ".log", std::ios::app);
        log << "game 23 opening 11 black 1 dis";  // no newline: torn
    }

    // Without --resume the runner refuses to overwrite the record.
    const auto refused = run_match(match_args(prefix), dir);
    CHECK(refused.exit_code == 1);
    CHECK(refused.err.find("--resume") != std::string::npos);

    auto resume_args = match_args(prefix);
    resume_args.push_back("--resume");
    // Resume, then interrupt politely (SIGINT) after some more games: the runner stops at once, keeps
    // what is recorded and says how to continue.
    const pid_t second = start_match(resume_args, dir);
    while (complete_lines(prefix + ".log") < 15 && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(second, SIGINT);
    const auto interrupted = wait_match(second, dir);
    CHECK(interrupted.exit_code == 130);
    CHECK(interrupted.err.find("continue with --resume") != std::string::npos);
    CHECK(json_field(read_text(prefix + ".json"), "complete") == "false");

    const auto resumed = run_match(resume_args, dir);
    INFO(resumed.err);
    REQUIRE(resumed.exit_code == 0);
    for (const char* key : {"games", "wins", "draws", "losses", "pentanomial", "average_disc_margin", "elo", "elo_ci95",
                            "complete", "forfeits"}) {
        CHECK_MESSAGE(json_field(resumed.out, key) == json_field(full.out, key), key);
    }
    // Exactly one GGF game and one log line per game number.
    const auto ggf = read_lines(prefix + ".ggf");
    CHECK(ggf.size() == 24);
    std::set<int> numbers;
    for (const auto& line : ggf) {
        const auto at = line.find("GN[");
        REQUIRE(at != std::string::npos);
        numbers.insert(std::atoi(line.c_str() + at + 3));
    }
    CHECK(numbers.size() == 24);
    CHECK(check_ggf(prefix + ".ggf") == 0);
    CHECK(*numbers.rbegin() == 23);
    CHECK(complete_lines(prefix + ".log") == 25);
    CHECK(read_text(prefix + ".log").back() == '\n');

    // Resuming a finished match plays nothing and reports the same.
    const auto again = run_match(resume_args, dir);
    CHECK(again.exit_code == 0);
    CHECK(json_field(again.out, "wins") == json_field(full.out, "wins"));
    CHECK(read_lines(prefix + ".ggf").size() == 24);

    // A different match cannot resume these files.
    auto other = resume_args;
    other[3] = "depth=2";
    const auto mismatch = run_match(other, dir);
    CHECK(mismatch.exit_code == 1);
    CHECK(mismatch.err.find("different match") != std::string::npos);
}

TEST_CASE(
    "resume: a second runner on the same --out is refused while the first runs, and the files stay the runner's") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    const std::string dir = scratch_dir("same-out");
    const std::string prefix = dir + "/m";
    const std::string fds = dir + "/fds.txt";
    // A slow engine (60 ms a move: the match lasts about 15 s) that writes down the descriptors it inherited.
    const std::vector<std::string> args = match_args(prefix, "--mode slow --sleep-ms 60 --fds " + fds, 8, 1);
    const auto with = [&](const std::string& flag) {
        auto a = args;
        if (!flag.empty()) a.push_back(flag);
        return a;
    };
    const pid_t first = start_match(args, dir);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (complete_lines(prefix + ".log") < 1 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    // Before, --resume cut and rewrote the files the first runner was writing, and --overwrite emptied them.
    // And without either, "in use" rather than "exists: continue it with --resume" (refused in turn).
    for (const char* flag : {"--resume", "--overwrite", ""}) {
        const auto second = run_match(with(flag), scratch_dir("same-out-second"));
        CHECK_MESSAGE(second.exit_code == 1, flag);
        CHECK_MESSAGE(second.err.find("m.log is in use by another reversi-match") != std::string::npos, second.err);
    }
    ::kill(first, SIGKILL);
    (void)wait_match(first, dir);
    CHECK(read_text(prefix + ".log").rfind("# reversi-match", 0) == 0);  // still the first runner's record

    // A link planted at the name the GGF file was rewritten through on resume (PREFIX.ggf.tmp): not followed.
    { std::ofstream(dir + "/victim.txt") << "victim\n"; }
    REQUIRE(::symlink((dir + "/victim.txt").c_str(), (prefix + ".ggf.tmp").c_str()) == 0);
    const auto resumed = run_match(with("--resume"), dir);
    INFO(resumed.err);
    REQUIRE(resumed.exit_code == 0);
    CHECK(json_int(resumed.out, "games") == 8);
    CHECK(check_ggf(prefix + ".ggf") == 0);
    CHECK(read_text(dir + "/victim.txt") == "victim\n");
    // The engines inherit none of the runner's result files (before: both, open for writing).
    const std::string inherited = read_text(fds);
    REQUIRE(!inherited.empty());
    CHECK_MESSAGE(inherited.find(prefix + ".log") == std::string::npos, inherited);
    CHECK_MESSAGE(inherited.find(prefix + ".ggf") == std::string::npos, inherited);
}

TEST_CASE("resume: a log without its whole header line (killed before it was written) starts the match over") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    for (const char* torn : {"", "# reversi-match res"}) {
        const std::string dir = scratch_dir("torn-header");
        const std::string prefix = dir + "/m";
        std::ofstream(prefix + ".log") << torn;
        auto args = match_args(prefix);
        args.push_back("--resume");
        const auto r = run_match(args, dir);
        INFO(r.err);
        CHECK(r.exit_code == 0);  // before: "belongs to a different match"
        CHECK(json_int(r.out, "games") == 24);
    }
    // One line of something else, without its newline: not a torn header, refused and kept.
    const std::string dir = scratch_dir("torn-header");
    std::ofstream(dir + "/m.log") << "precious data";
    auto args = match_args(dir + "/m");
    args.push_back("--resume");
    const auto r = run_match(args, dir);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("belongs to a different match") != std::string::npos);
    CHECK(read_text(dir + "/m.log") == "precious data");
}
