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
    // On a small board: a board string that starts with "--" (two empty squares: every 6x6 board does) is a
    // board, not an unknown option, and --obf reads lines of the variant's squares (before, 8x8 lines,
    // searched on 8x8).
    const std::string board6 = "----------OOOOO---OOOX---OOOXX-----XOXO-----XOO----X------------ X";
    const std::string from_string = tool.string() + " --variant 6x6 '" + board6 +
                                    "' --depths 2 --no-trees --algorithms alphabeta > " + (dir / "s.txt").string() +
                                    " 2>&1";
    CHECK(std::system(from_string.c_str()) == 0);
    std::ofstream(dir / "six.obf") << "-OOOOO-OOOX-OOOXX---XOXO---XOO--X--- X\n";  // the same board, 36 squares
    const std::string from_obf = tool.string() + " --variant 6x6 --obf " + (dir / "six.obf").string() +
                                 " --depths 2 --no-trees --algorithms alphabeta > " + (dir / "o.txt").string() +
                                 " 2>&1";
    CHECK(std::system(from_obf.c_str()) == 0);
    const auto row = [](const std::string& table) {  // the alphabeta row of the first table
        const auto at = table.find("\nalphabeta");
        return at == std::string::npos ? std::string() : table.substr(at, table.find('\n', at + 1) - at);
    };
    CHECK(!row(read_all(dir / "s.txt")).empty());
    CHECK_MESSAGE(row(read_all(dir / "s.txt")) == row(read_all(dir / "o.txt")), read_all(dir / "o.txt"));
    CHECK(std::system((tool.string() + " --variant 6x6 --ffo 40 > /dev/null 2>&1").c_str()) != 0);
    std::filesystem::remove_all(dir);
}
