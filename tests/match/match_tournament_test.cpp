// Tournaments of more than two engines with the test doubles: pairings, standings, JSON, gauntlet,
// refusals, and resume after kill -9.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "tests/match/match_harness.hpp"

using namespace reversi::match_test;

namespace {

// Deterministic fakes (a move is a hash of the position and the seed): results depend only on the game.
std::vector<std::string> tournament_args(const std::string& prefix, int engines, int games,
                                         const std::string& kind = "round-robin") {
    std::vector<std::string> args;
    for (int e = 0; e < engines; ++e) {
        args.insert(args.end(), {"--engine", "name=e" + std::to_string(e), fake_uci("--seed " + std::to_string(21 + e)),
                                 "depth=1"});
    }
    args.insert(args.end(),
                {"--tournament", kind, "--games", std::to_string(games), "--concurrency", "2", "--random-openings", "6",
                 "--balance-depth", "0", "--seed", "3", "--out", prefix, "--json"});
    return args;
}

// The text between the first `"key": ` at any depth after `from` and the end of its line.
std::string field_after(const std::string& json, std::size_t from, const std::string& key) {
    const auto at = json.find("\"" + key + "\": ", from);
    if (at == std::string::npos) return "<missing>";
    const auto begin = at + key.size() + 4;
    std::string v = json.substr(begin, json.find('\n', begin) - begin);
    if (!v.empty() && v.back() == ',') v.pop_back();
    return v;
}

// Each pairing object of the JSON (starting at its "engines" line).
std::vector<std::size_t> pairing_offsets(const std::string& json) {
    std::vector<std::size_t> out;
    const auto start = json.find("\"pairings\": [");
    for (auto at = json.find("\n      \"engines\": ", start); at != std::string::npos;
         at = json.find("\n      \"engines\": ", at + 1)) {
        out.push_back(at);
    }
    return out;
}

// Standings lines: {"rank": 1, "engine": "e2", "points": 7.0, ...}
std::vector<std::string> standings_lines(const std::string& json) {
    std::vector<std::string> out;
    auto at = json.find("\"standings\": [");
    while ((at = json.find("{\"rank\": ", at + 1)) != std::string::npos)
        out.push_back(json.substr(at, json.find('\n', at) - at));
    return out;
}

double number_in(const std::string& line, const std::string& key) {
    const auto at = line.find("\"" + key + "\": ");
    return at == std::string::npos ? -1 : std::atof(line.c_str() + at + key.size() + 4);
}

}  // namespace

TEST_CASE("tournament: a three-engine round-robin plays every pair with colours swapped and adds up") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    const std::string dir = scratch_dir("rr3");
    const auto r = run_match(tournament_args(dir + "/t", 3, 6), dir);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(json_field(r.out, "tournament") == "\"round-robin\"");
    CHECK(json_field(r.out, "engines") == "[\"e0\", \"e1\", \"e2\"]");
    CHECK(json_int(r.out, "games") == 18);
    CHECK(json_int(r.out, "games_planned") == 18);
    CHECK(json_field(r.out, "complete") == "true");
    const auto pairs = pairing_offsets(r.out);
    REQUIRE(pairs.size() == 3);
    const char* names[3] = {"[\"e0\", \"e1\"]", "[\"e0\", \"e2\"]", "[\"e1\", \"e2\"]"};
    // Points of each engine from the pairings.
    double points[3] = {0, 0, 0};
    const int first[3] = {0, 0, 1}, second[3] = {1, 2, 2};
    for (int k = 0; k < 3; ++k) {
        CHECK(field_after(r.out, pairs[k], "engines") == names[k]);
        CHECK(field_after(r.out, pairs[k], "games") == "6");
        CHECK(field_after(r.out, pairs[k], "pairs") == "3");
        const int w = std::atoi(field_after(r.out, pairs[k], "wins").c_str());
        const int d = std::atoi(field_after(r.out, pairs[k], "draws").c_str());
        const int l = std::atoi(field_after(r.out, pairs[k], "losses").c_str());
        CHECK(w + d + l == 6);
        points[first[k]] += w + 0.5 * d;
        points[second[k]] += l + 0.5 * d;
    }
    const auto table = standings_lines(r.out);
    REQUIRE(table.size() == 3);
    double total = 0, previous = 1e9, elo_sum = 0;
    std::set<std::string> seen;
    for (const auto& line : table) {
        INFO(line);
        const auto at = line.find("\"engine\": \"e");
        REQUIRE(at != std::string::npos);
        const int e = line[at + 12] - '0';
        seen.insert(line.substr(at, 14));
        CHECK(number_in(line, "points") == doctest::Approx(points[e]));
        CHECK(number_in(line, "games") == 12);
        CHECK(number_in(line, "score") == doctest::Approx(points[e] / 12).epsilon(1e-5));
        CHECK(number_in(line, "points") <= previous);
        previous = number_in(line, "points");
        total += previous;
        elo_sum += number_in(line, "elo");
    }
    CHECK(seen.size() == 3);
    CHECK(total == 18);
    CHECK(elo_sum == doctest::Approx(0).epsilon(0.02));
    CHECK(json_field(r.out, "standings_method").find("Bradley-Terry") != std::string::npos);
    // The files: 18 games, numbers 0..17, every one legal; the JSON file equals stdout.
    const auto ggf = read_lines(dir + "/t.ggf");
    CHECK(ggf.size() == 18);
    CHECK(check_ggf(dir + "/t.ggf") == 0);
    CHECK(read_text(dir + "/t.json") == r.out);

    // The text summary: a block per pairing and the standings table.
    auto text_args = tournament_args(dir + "/t", 3, 6);
    text_args.pop_back();  // --json
    text_args.push_back("--resume");
    const auto text = run_match(text_args, dir);
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("round-robin tournament of 3 engines, 3 pairings: 18 games\n") == 0);
    CHECK(text.out.find("e0 vs e1: 6 games") != std::string::npos);
    CHECK(text.out.find("e0 vs e2: 6 games") != std::string::npos);
    CHECK(text.out.find("e1 vs e2: 6 games") != std::string::npos);
    CHECK(text.out.find("standings (Elo relative to the field: Bradley-Terry") != std::string::npos);
    CHECK(read_lines(dir + "/t.ggf").size() == 18);  // nothing replayed
}

TEST_CASE("tournament: a gauntlet plays the first engine against each other one") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    const std::string dir = scratch_dir("gauntlet");
    const auto r = run_match(tournament_args(dir + "/g", 4, 4, "gauntlet"), dir);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(json_field(r.out, "tournament") == "\"gauntlet\"");
    CHECK(json_int(r.out, "games") == 12);
    const auto pairs = pairing_offsets(r.out);
    REQUIRE(pairs.size() == 3);
    CHECK(field_after(r.out, pairs[0], "engines") == "[\"e0\", \"e1\"]");
    CHECK(field_after(r.out, pairs[1], "engines") == "[\"e0\", \"e2\"]");
    CHECK(field_after(r.out, pairs[2], "engines") == "[\"e0\", \"e3\"]");
    const auto table = standings_lines(r.out);
    REQUIRE(table.size() == 4);
    for (const auto& line : table) {
        INFO(line);
        CHECK(number_in(line, "games") == (line.find("\"e0\"") != std::string::npos ? 12 : 4));
    }
    CHECK(read_lines(dir + "/g.ggf").size() == 12);
    CHECK(check_ggf(dir + "/g.ggf") == 0);
}

TEST_CASE("tournament: SPRT and unknown kinds are refused with more than two engines") {
    const std::string dir = scratch_dir("refuse");
    auto args = tournament_args(dir + "/x", 3, 2);
    args.insert(args.end(), {"--sprt", "0,10,0.05,0.05"});
    const auto sprt = run_match(args, dir);
    CHECK(sprt.exit_code == 2);
    CHECK(sprt.err.find("--sprt needs exactly two engines") != std::string::npos);
    const auto kind = run_match(tournament_args(dir + "/x", 3, 2, "swiss"), dir);
    CHECK(kind.exit_code == 2);
    CHECK(kind.err.find("round-robin or gauntlet") != std::string::npos);
    const auto one = run_match(tournament_args(dir + "/x", 1, 2), dir);
    CHECK(one.exit_code == 2);
    CHECK(one.err.find("at least two --engine") != std::string::npos);
}

TEST_CASE("tournament: resume of a three-engine round-robin after kill -9 equals an uninterrupted run") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    const std::string full_dir = scratch_dir("rr-full");
    const auto full = run_match(tournament_args(full_dir + "/t", 3, 8), full_dir);
    REQUIRE(full.exit_code == 0);
    REQUIRE(json_int(full.out, "games") == 24);

    const std::string dir = scratch_dir("rr-cut");
    const std::string prefix = dir + "/t";
    const pid_t pid = start_match(tournament_args(prefix, 3, 8), dir);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (complete_lines(prefix + ".log") < 9 && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid, SIGKILL);
    const auto killed = wait_match(pid, dir);
    CHECK(killed.exit_code == 128 + SIGKILL);
    const int recorded = complete_lines(prefix + ".log") - 1;
    INFO("games recorded before the kill: " << recorded);
    CHECK(recorded >= 8);
    CHECK(recorded < 24);

    auto resume_args = tournament_args(prefix, 3, 8);
    resume_args.push_back("--resume");
    const auto resumed = run_match(resume_args, dir);
    INFO(resumed.err);
    REQUIRE(resumed.exit_code == 0);
    // Everything but the wall time equals the uninterrupted run.
    auto without_seconds = [](std::string json) {
        std::string out;
        std::istringstream in(json);
        for (std::string line; std::getline(in, line);) {
            if (line.find("\"seconds\": ") == std::string::npos) out += line + "\n";
        }
        return out;
    };
    CHECK(without_seconds(resumed.out) == without_seconds(full.out));
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
    CHECK(complete_lines(prefix + ".log") == 25);

    // The same files with a different tournament kind are a different match.
    auto other = tournament_args(prefix, 3, 8, "gauntlet");
    other.push_back("--resume");
    const auto mismatch = run_match(other, dir);
    CHECK(mismatch.exit_code == 1);
    CHECK(mismatch.err.find("different match") != std::string::npos);
}

TEST_CASE("tournament: a forfeit is charged to the right engine in every pairing it plays") {
    if (!have_python()) {
        MESSAGE("python3 not found: skipped");
        return;
    }
    // e1 is the second engine of (e0, e1) and the first of (e1, e2); it plays an illegal move in every game.
    const std::string dir = scratch_dir("rr-faults");
    const auto r = run_match({"--engine",
                              "name=e0",
                              fake_uci("--seed 1"),
                              "depth=1",
                              "--engine",
                              "name=e1",
                              fake_uci("--seed 2 --mode illegal --after 3"),
                              "depth=1",
                              "--engine",
                              "name=e2",
                              fake_uci("--seed 3"),
                              "depth=1",
                              "--games",
                              "2",
                              "--random-openings",
                              "6",
                              "--balance-depth",
                              "0",
                              "--out",
                              dir + "/f",
                              "--json"},
                             dir);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto pairs = pairing_offsets(r.out);
    REQUIRE(pairs.size() == 3);
    CHECK(field_after(r.out, pairs[0], "forfeits") == "{\"illegal by e1\": 2}");
    CHECK(field_after(r.out, pairs[0], "wins") == "2");
    CHECK(field_after(r.out, pairs[1], "forfeits") == "{}");
    CHECK(field_after(r.out, pairs[2], "forfeits") == "{\"illegal by e1\": 2}");
    CHECK(field_after(r.out, pairs[2], "losses") == "2");
    const auto table = standings_lines(r.out);
    REQUIRE(table.size() == 3);
    CHECK(table[2].find("\"engine\": \"e1\", \"points\": 0.0") != std::string::npos);
    CHECK(table[2].find("\"elo\": null") != std::string::npos);  // -inf: no point scored
    CHECK(check_ggf(dir + "/f.ggf") == 0);
}
