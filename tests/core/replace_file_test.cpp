// replace_file (engine/core/replace_file.hpp): the file is written whole under a temporary name, then
// renamed over the old one; a failure leaves the old file as it was and no temporary file behind.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/core/replace_file.hpp"

namespace fs = std::filesystem;

namespace {

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
    CHECK_FALSE(fs::exists(dir / "f.bin.tmp"));
    // A folder cannot be replaced by a file: an error naming it, the folder kept, no f.tmp beside it.
    const auto refused = reversi::replace_file((dir / "a-folder").string(), bytes, "test");
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.find("a-folder") != std::string::npos);
    CHECK(fs::is_directory(dir / "a-folder"));
    CHECK_FALSE(fs::exists(dir / "a-folder.tmp"));
    fs::remove_all(dir);
}
