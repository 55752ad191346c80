// reversi-train end to end on a tiny configuration: train, resume, measure, embed, and clear errors.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <sys/wait.h>

#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "tests/support/random_positions.hpp"

namespace {

struct Run {
    int status = -1;
    std::string output;  // stdout and stderr
};

Run run(const std::string& args) {
    // Appended piece by piece: GCC 12 reports the chained operator+ of temporaries here as an out-of-bounds
    // memcpy in the TSan build (-Warray-bounds, a false positive).
    std::string command = REVERSI_BINARY_DIR;
    command += "/tools/reversi-train ";
    command += args;
    command += " 2>&1";
    Run r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer{};
    while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe)) r.output += buffer.data();
    r.status = pclose(pipe);
    return r;
}

}  // namespace

TEST_CASE("reversi-train: --help, bad commands and options are reported") {
    if (!std::filesystem::exists(std::string(REVERSI_BINARY_DIR) + "/tools/reversi-train")) {
        MESSAGE("skipped: reversi-train is not built");
        return;
    }
    const Run help = run("--help");
    CHECK(help.status == 0);
    CHECK(help.output.find("measure") != std::string::npos);
    CHECK(run("--version").status == 0);
    const Run unknown = run("fly");
    CHECK(unknown.status != 0);
    CHECK(unknown.output.find("unknown command") != std::string::npos);
    const Run missing = run("measure --weights /nonexistent.weights x.obf");
    CHECK(missing.status != 0);
    CHECK(missing.output.find("cannot open") != std::string::npos);
    // What is not a regular file is refused (a folder read as empty, /dev/zero never ended), and a file
    // system failure a command does not report itself ends the run with exit status 1, not an abort.
    const std::string folder = std::filesystem::temp_directory_path().string();
    const Run embed_folder = run("embed --in " + folder + " --out /dev/null");
    CHECK(WEXITSTATUS(embed_folder.status) == 1);
    CHECK(embed_folder.output.find("not a regular file") != std::string::npos);
    const Run measure_zero = run("measure /dev/zero");
    CHECK(WEXITSTATUS(measure_zero.status) == 1);
    CHECK(measure_zero.output.find("not a regular file") != std::string::npos);
}

TEST_CASE("reversi-train: a tiny training run, its resumption, measure, probcut and embed") {
    const std::string data = reversi::testing::shared_data_dir();
    if (data.empty() || !std::filesystem::exists(std::string(REVERSI_BINARY_DIR) + "/tools/reversi-train")) {
        MESSAGE("skipped: ../shared/data is absent or reversi-train is not built");
        return;
    }
    const auto dir = std::filesystem::temp_directory_path() / "reversi-train-cli-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string out = (dir / "tiny.weights").string();
    const std::string common =
        "train --wthor " + data + "/wthor --max-games 300 --exact-empties 6 --iterations 8 --out " + out;
    const Run trained = run(common);
    REQUIRE_MESSAGE(trained.status == 0, trained.output);
    CHECK(trained.output.find("training set: ") != std::string::npos);
    CHECK(trained.output.find("test-MAE") != std::string::npos);
    REQUIRE(reversi::eval::PatternEvaluator::from_file(out));

    // A --cache that is a file cannot hold the cache's folder: a message and status 1, not an abort.
    const Run cache_file = run(common + " --cache /dev/null");
    CHECK(WIFEXITED(cache_file.status));
    CHECK(WEXITSTATUS(cache_file.status) == 1);
    CHECK(cache_file.output.find("reversi-train: train: ") != std::string::npos);

    const Run resumed = run(common + " --resume");
    REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
    CHECK(resumed.output.find("kept from") != std::string::npos);  // every phase was already fitted

    // A warm start refines phases 0-1 of the file on its positions with 0-8 empties, from their tables.
    const Run warm = run(common + " --refit-phases 0-1 --warm-start --fit-empties 0-8");
    REQUIRE_MESSAGE(warm.status == 0, warm.output);
    CHECK(warm.output.find("warm start: train MAE") != std::string::npos);
    CHECK(warm.output.find("before the warm start, by empties: 0-5 ") != std::string::npos);
    const auto fitted_at = warm.output.find("fitted, by empties: 0-5 ");
    REQUIRE(fitted_at != std::string::npos);
    const std::string fitted_line = warm.output.substr(fitted_at, warm.output.find('\n', fitted_at) - fitted_at);
    CHECK(fitted_line.find("6-11") != std::string::npos);
    CHECK(fitted_line.find("12-17") == std::string::npos);  // outside --fit-empties
    const Run no_phases = run(common + " --warm-start");
    CHECK(no_phases.status != 0);
    CHECK(no_phases.output.find("--refit-phases") != std::string::npos);
    const Run bad_range = run(common + " --refit-phases 0-1 --fit-empties 9-3");
    CHECK(bad_range.status != 0);
    CHECK(bad_range.output.find("--fit-empties") != std::string::npos);

    const Run measured = run("measure --weights " + out + " --depths 2 " + data + "/endgame-hard/hard-20.obf");
    REQUIRE_MESSAGE(measured.status == 0, measured.output);
    CHECK(measured.output.find("pattern") != std::string::npos);
    CHECK(measured.output.find("heuristic") != std::string::npos);
    CHECK(measured.output.find("mean-error") == std::string::npos);
    // --by-loss: the pattern evaluation's moves again, in five groups that hold them all, and the moves the
    // evaluation rates best (loss 0) are at least one per position.
    const Run grouped = run("measure --weights " + out + " --by-loss " + data + "/endgame-hard/hard-20.obf");
    REQUIRE_MESSAGE(grouped.status == 0, grouped.output);
    REQUIRE(grouped.output.find("mean-error") != std::string::npos);
    long long all_moves = -1, grouped_moves = 0, best_group = 0, group_lines = 0;
    std::istringstream lines(grouped.output);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string file, evaluation, third, fourth;
        fields >> file >> evaluation >> third >> fourth;
        if (file != "hard-20.obf" || evaluation != "pattern") continue;
        if (all_moves < 0) {
            all_moves = std::stoll(third);  // the main table: moves, MAE, RMSE, 1-ply loss
            continue;
        }
        ++group_lines;
        grouped_moves += std::stoll(fourth);
        if (third == "0") best_group = std::stoll(fourth);
    }
    CHECK(group_lines == 5);
    CHECK(all_moves > 0);
    CHECK(grouped_moves == all_moves);
    CHECK(best_group >= 276);  // hard-20 holds 276 positions

    // The engine's own search: chosen-move quality on the first positions of a file.
    const Run played = run("measure --weights " + out + " --depth 3 --limit 5 " + data + "/endgame-hard/hard-20.obf");
    REQUIRE_MESSAGE(played.status == 0, played.output);
    CHECK(played.output.find("mean-loss") != std::string::npos);
    CHECK(played.output.find("hard-20.obf                  5 ") != std::string::npos);
    CHECK(played.output.find("3.00") != std::string::npos);  // mean depth reached
    CHECK(run("measure --movetime 10 --depth 3 " + data + "/endgame-hard/hard-20.obf").status != 0);
    CHECK(run("measure --depth 3 --eval nonsense " + data + "/endgame-hard/hard-20.obf").status != 0);

    const std::string with_model = (dir / "model.weights").string();
    const Run probcut = run("probcut --weights " + out + " --wthor " + data +
                            "/wthor --schedule 4:60,5:30 --min-samples 3 --threads 2 --out " + with_model);
    REQUIRE_MESSAGE(probcut.status == 0, probcut.output);
    CHECK(probcut.output.find("sigma") != std::string::npos);
    {
        auto stored = reversi::eval::PatternEvaluator::from_file(with_model);
        REQUIRE(stored);
        REQUIRE(stored->weights().probcut.has_value());
        CHECK(stored->weights().probcut->line(5, 4) != nullptr);  // 60 positions over phases 2-8, about 8 each
        CHECK(stored->weights().probcut->line(5, 6) == nullptr);  // beyond the schedule
        CHECK(stored->weights().weights == reversi::eval::PatternEvaluator::from_file(out)->weights().weights);
    }
    {  // --keep-model: the stored cells stay bit for bit (another sample here), the run only adds those
       // they lack (depths 5 and 6 here)
        const std::string kept = (dir / "kept.weights").string();
        const Run added = run("probcut --weights " + with_model + " --wthor " + data +
                              "/wthor --schedule 6:40 --min-samples 3 --keep-model --out " + kept);
        REQUIRE_MESSAGE(added.status == 0, added.output);
        CHECK(added.output.find("kept") != std::string::npos);
        const auto before = reversi::eval::PatternEvaluator::from_file(with_model);
        const auto after = reversi::eval::PatternEvaluator::from_file(kept);
        REQUIRE(before);
        REQUIRE(after);
        const auto& old_model = *before->weights().probcut;
        const auto& new_model = *after->weights().probcut;
        CHECK(old_model.line(5, 6) == nullptr);
        REQUIRE(new_model.line(5, 6) != nullptr);
        CHECK(new_model.line(5, 6)->shallow == 2);
        for (int p = 0; p < reversi::eval::kPhaseCount; ++p) {
            for (int d = reversi::eval::ProbCutModel::kMinDepth; d <= reversi::eval::ProbCutModel::kMaxDepth; ++d) {
                const auto* o = old_model.line(p, d);
                if (o == nullptr) continue;
                const auto* n = new_model.line(p, d);
                REQUIRE(n != nullptr);
                CHECK(n->a == o->a);
                CHECK(n->b == o->b);
                CHECK(n->sigma == o->sigma);
                CHECK(n->shallow == o->shallow);
            }
        }
    }
    CHECK(run("probcut --schedule 3:x").status != 0);
    CHECK(run("probcut --schedule 17:10").status != 0);

    const Run embedded = run("embed --in " + out + " --out " + (dir / "w.cpp").string());
    REQUIRE_MESSAGE(embedded.status == 0, embedded.output);
    CHECK(std::filesystem::file_size(dir / "w.cpp") > std::filesystem::file_size(out));

    // A damaged file is refused with the reason.
    {
        std::fstream f(out, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(100);
        const int byte = f.get();
        f.seekp(100);
        f.put(static_cast<char>(byte ^ 0x55));
    }
    const Run refused = run("embed --in " + out + " --out " + (dir / "w2.cpp").string());
    CHECK(refused.status != 0);
    CHECK(refused.output.find("checksum") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("reversi-train selfplay: games from openings, perfect play at the end, read back by train") {
    if (!std::filesystem::exists(std::string(REVERSI_BINARY_DIR) + "/tools/reversi-train")) {
        MESSAGE("skipped: reversi-train is not built");
        return;
    }
    const auto dir = std::filesystem::temp_directory_path() / "reversi-train-selfplay-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "games");
    const std::string openings = (dir / "xot.txt").string();
    std::ofstream(openings) << "f5d6c4d3c2b3b4b5\n# a comment\nf5f6d3c5d6c7b5e3\n";
    const std::string games = (dir / "games" / "WTH_SELF.wtb").string();
    const std::string common = "selfplay --openings " + openings + " --games 6 --depth 2 --exact-from 12 --seed 3";
    const Run one = run(common + " --out " + games);
    REQUIRE_MESSAGE(one.status == 0, one.output);
    CHECK(one.output.find("6 games written") != std::string::npos);
    // The same games with two threads (each game has its own random stream and tables).
    const std::string games2 = (dir / "two-threads.wtb").string();
    REQUIRE(run(common + " --threads 2 --out " + games2).status == 0);
    const auto read_all = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    CHECK(read_all(games) == read_all(games2));
    CHECK(read_all(games).size() == 16 + 6 * 68);
    // --date dates the header (century, year, month, day; the games' year) and changes nothing else, so
    // a file remade later with its original date is the same byte for byte.
    const std::string dated = (dir / "dated.wtb").string();
    REQUIRE(run(common + " --date 2024-02-29 --out " + dated).status == 0);
    const std::string d = read_all(dated), u = read_all(games);
    REQUIRE(d.size() == u.size());
    CHECK(d.substr(0, 4) == std::string("\x14\x18\x02\x1d", 4));
    CHECK(d.substr(10, 2) == std::string("\xe8\x07", 2));
    CHECK(d.substr(4, 6) == u.substr(4, 6));
    CHECK(d.substr(12) == u.substr(12));
    for (const char* date :
         {"2023-02-29", "2024-13-01", "2024-04-31", "24-02-29", "2024-2-290", "2024-02-29x", "1899-12-31", "2024/02/29",
          "", "2024-+2-29", "2024- 2-29", "2024-02-+9", " 024-02-29", "+024-02-29"}) {
        CAPTURE(date);
        const Run bad_date = run(common + " --date '" + date + "' --out " + dated);
        CHECK(WEXITSTATUS(bad_date.status) == 2);
        CHECK(bad_date.output.find("--date must be YYYY-MM-DD") != std::string::npos);
    }
    // --random-rate: later moves at random above --random-until empties. Rate 0, or no position above the
    // limit, leaves the games as they were; rate 100 changes them, the same way on one or two threads.
    const std::string randomized = (dir / "random.wtb").string();
    REQUIRE(run(common + " --random-rate 0 --out " + randomized).status == 0);
    CHECK(read_all(randomized) == u);
    REQUIRE(run(common + " --random-rate 100 --random-until 60 --out " + randomized).status == 0);
    CHECK(read_all(randomized) == u);
    REQUIRE(run(common + " --random-rate 100 --random-until 12 --out " + randomized).status == 0);
    const std::string r1 = read_all(randomized);
    CHECK(r1.size() == u.size());
    CHECK(r1.substr(16) != u.substr(16));
    REQUIRE(run(common + " --random-rate 100 --random-until 12 --threads 2 --out " + randomized).status == 0);
    CHECK(read_all(randomized) == r1);
    REQUIRE(run(common + " --random-rate 30 --random-until 20 --out " + randomized).status == 0);
    const std::string r2 = read_all(randomized);
    CHECK(r2.substr(16) != u.substr(16));
    CHECK(r2.substr(16) != r1.substr(16));
    const Run below = run(common + " --random-rate 10 --random-until 11 --out " + randomized);
    CHECK(WEXITSTATUS(below.status) == 2);
    CHECK(below.output.find("--random-until 11 is below --exact-from 12") != std::string::npos);
    const Run over = run(common + " --random-rate 101 --out " + randomized);
    CHECK(WEXITSTATUS(over.status) == 2);
    CHECK(over.output.find("random-rate") != std::string::npos);
    std::filesystem::remove(randomized);
    // The trainer reads them like tournament games: every position from 12 empties on has an exact target.
    const Run train = run("train --wthor " + (dir / "games").string() + " --exact-empties 12 --iterations 2 --out " +
                          (dir / "w.weights").string());
    REQUIRE_MESSAGE(train.status == 0, train.output);
    CHECK(train.output.find("from 6 games") != std::string::npos);
    // Clear errors.
    const Run no_out = run("selfplay --games 1");
    CHECK(WEXITSTATUS(no_out.status) == 2);
    CHECK(no_out.output.find("--out FILE.wtb") != std::string::npos);
    const Run bad_openings = run("selfplay --openings /nonexistent.txt --out " + games);
    CHECK(WEXITSTATUS(bad_openings.status) == 1);
    CHECK(bad_openings.output.find("cannot open") != std::string::npos);
    std::ofstream(openings) << "f5z9\n";
    const Run illegal = run("selfplay --openings " + openings + " --out " + games);
    CHECK(WEXITSTATUS(illegal.status) == 1);
    CHECK(illegal.output.find("xot.txt:1:") != std::string::npos);
    std::ofstream(openings) << "*--------------------------O*------*O--------------------------- X\n";
    const Run board = run("selfplay --openings " + openings + " --out " + games);
    CHECK(WEXITSTATUS(board.status) == 1);
    CHECK(board.output.find("is a board") != std::string::npos);
    // Random moves that reach --exact-from's empties: the file could not claim perfect play from there.
    std::ofstream(openings) << "f5d6c4d3c2b3b4b5\n";
    const Run random_late = run("selfplay --openings " + openings +
                                " --games 1 --depth 1 --random-plies 60 --exact-from 10 --out " + games);
    CHECK(WEXITSTATUS(random_late.status) == 1);
    CHECK(random_late.output.find("within --exact-from 10") != std::string::npos);
    // An --out that cannot be written is refused before the games are played (before: after them).
    const Run no_folder = run("selfplay --openings " + openings + " --games 1 --depth 1 --out /nonexistent/x.wtb");
    CHECK(WEXITSTATUS(no_folder.status) == 1);
    CHECK(no_folder.output.find("no folder /nonexistent") != std::string::npos);
    CHECK(no_folder.output.find("games,") == std::string::npos);  // no game was played
    // A pass written in an opening (Black has no move after h6) is played as the games play passes (before:
    // "the search returned pass").
    std::ofstream(openings) << "f5f6c4g5h5h4g7h6passc5\n";
    const Run pass = run("selfplay --openings " + openings + " --games 2 --depth 2 --exact-from 4 --out " + games);
    CHECK_MESSAGE(pass.status == 0, pass.output);
    CHECK(read_all(games).size() == 16 + 2 * 68);
    const Run extra = run("train --selfplay /nonexistent.wtb --out " + (dir / "w.weights").string());
    CHECK(WEXITSTATUS(extra.status) == 1);
    for (const char* weight : {"1.5", "0.5:2", "0.5:", "x", "0.5:0.8x"}) {
        CAPTURE(weight);
        const Run bad_weight = run("train --search-depth 2 --search-weight " + std::string(weight) + " --out " +
                                   (dir / "w.weights").string());
        CHECK(WEXITSTATUS(bad_weight.status) == 2);
        CHECK(bad_weight.output.find("--search-weight: expected") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
}
