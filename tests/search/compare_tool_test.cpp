// Smoke test of the comparison tool binary: a small run writes the tables, the CSV and the SVG.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace {

std::string read_all(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("reversi-compare: 4x4 start, depths 1-3, every algorithm: tables, CSV and SVG") {
    const std::filesystem::path tool = std::filesystem::path(REVERSI_BINARY_DIR) / "tools" / "reversi-compare";
    if (!std::filesystem::exists(tool)) {
        MESSAGE("skipped: " << tool.string() << " is not built");
        return;
    }
    const auto dir = std::filesystem::temp_directory_path() / ("reversi-compare-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string command = tool.string() + " --variant 4x4 --start --depths 1-3 --no-trees --csv " +
                                (dir / "out.csv").string() + " --svg " + (dir / "out.svg").string() + " > " +
                                (dir / "out.txt").string() + " 2> " + (dir / "err.txt").string();
    REQUIRE(std::system(command.c_str()) == 0);
    const std::string table = read_all(dir / "out.txt");
    CHECK(table.find("minimax") != std::string::npos);
    CHECK(table.find("cstar") != std::string::npos);
    CHECK(table.find("vs alphabeta") != std::string::npos);
    CHECK(table.find('!') == std::string::npos);  // every algorithm agrees on the score
    const std::string csv = read_all(dir / "out.csv");
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 9 * 3);
    CHECK(read_all(dir / "out.svg").rfind("<svg", 0) == 0);
    CHECK(read_all(dir / "err.txt").find("depth  3") != std::string::npos);             // progress on stderr
    CHECK(std::system((tool.string() + " --depths 3 > /dev/null 2>&1").c_str()) != 0);  // no position: an error
    // --lines counts from 1: line 0 was read before the file's first entry (found by ASan in a probe).
    std::ofstream(dir / "one.obf") << "---------------------------OX------XO--------------------------- X\n";
    const std::string lines0 = tool.string() + " --obf " + (dir / "one.obf").string() +
                               " --lines 0 --depths 1 --no-trees > /dev/null 2> " + (dir / "err0.txt").string();
    CHECK(WEXITSTATUS(std::system(lines0.c_str())) == 2);
    CHECK(read_all(dir / "err0.txt").find("lines are numbered from 1") != std::string::npos);
    std::filesystem::remove_all(dir);
}
