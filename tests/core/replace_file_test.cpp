// replace_file (engine/core/replace_file.hpp): the file is written whole under a temporary name, then
// renamed over the old one; a failure leaves the old file as it was and no temporary file behind.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "engine/core/replace_file.hpp"

namespace fs = std::filesystem;

namespace {

// The files in `dir` whose names start with `prefix` (a temporary file left behind).
int files_starting(const fs::path& dir, const std::string& prefix) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().rfind(prefix, 0) == 0;
    return n;
}

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("replace_file writes the bytes whole, and a failed rename leaves no temporary file") {
    const fs::path dir = fs::temp_directory_path() / ("replace-file-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "a-folder");
    const std::vector<std::uint8_t> bytes{'o', 't', 'h', 'e', 'l', 'l', 'o'};
    REQUIRE(reversi::replace_file((dir / "f.bin").string(), bytes, "test"));
    CHECK(read_all(dir / "f.bin") == "othello");
    CHECK(files_starting(dir, "f.bin.tmp") == 0);
    // A folder cannot be replaced by a file: an error naming it, the folder kept, no f.tmp beside it.
    const auto refused = reversi::replace_file((dir / "a-folder").string(), bytes, "test");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("a-folder") != std::string::npos);
    CHECK(fs::is_directory(dir / "a-folder"));
    CHECK(files_starting(dir, "a-folder.tmp") == 0);
    fs::remove_all(dir);
}

TEST_CASE("replace_file: writers of one file at once each rename a whole file of their own") {
    const fs::path dir = fs::temp_directory_path() / ("replace-file-race-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = (dir / "shared.book").string();
    std::atomic<int> failures{0};
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w) {
        writers.emplace_back([&, w] {
            const std::vector<std::uint8_t> bytes(4096, static_cast<std::uint8_t>('a' + w));
            for (int i = 0; i < 50; ++i) failures += reversi::replace_file(path, bytes, "test") ? 0 : 1;
        });
    }
    for (auto& t : writers) t.join();
    CHECK(failures == 0);  // with one PATH.tmp for all, a rename found another writer's file gone
    const std::string text = read_all(path);
    REQUIRE(text.size() == 4096);
    CHECK(text == std::string(4096, text[0]));  // one writer's bytes, whole
    CHECK(files_starting(dir, "shared.book.tmp") == 0);
    fs::remove_all(dir);
}

TEST_CASE("replace_file never writes through a file or link planted at its temporary name") {
    const fs::path dir = fs::temp_directory_path() / ("replace-file-link-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path sentinel = dir / "sentinel";
    { std::ofstream(sentinel) << "keep me"; }
    // The name this thread would write first (replace_file.hpp): PATH.tmp.PID-THREAD.
    const std::string path = (dir / "target.book").string();
    const std::string planted = path + ".tmp." + std::to_string(::getpid()) + "-" +
                                std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    fs::create_symlink(sentinel, planted);
    fs::create_symlink(sentinel, path + ".tmp");  // the name of the writer before (followed by its ofstream)
    const std::vector<std::uint8_t> bytes{'n', 'e', 'w'};
    REQUIRE(reversi::replace_file(path, bytes, "test"));
    CHECK(read_all(path) == "new");
    CHECK(read_all(sentinel) == "keep me");  // an ofstream on the name followed the link
    CHECK(fs::is_symlink(planted));          // left alone: another name was taken
    fs::remove_all(dir);
}
