// The distributed queue's pure functions (tools/queue/work_queue.hpp): the command line a coordinator
// stores for its workers comes back argument for argument, or is refused.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tools/queue/work_queue.hpp"

using reversi::queue::args_error;
using reversi::queue::join_args;
using reversi::queue::split_args;

TEST_CASE("queue: a command line comes back from join_args and split_args, empty arguments included") {
    const std::vector<std::vector<std::string>> lines = {
        {"reversi-match", "--engine", "name=a", "cmd=/bin/engine --x", "depth=2"},
        {"reversi-match", "--out", ""},    // a trailing empty argument (split_args dropped it)
        {"reversi-match", "", "", "--x"},  // empty ones in the middle
        {"", "a"},
        {"only"},
        {}};
    for (const auto& line : lines) {
        CHECK_FALSE(args_error(line).has_value());
        CHECK(split_args(join_args(line)) == line);
    }
}

TEST_CASE("queue: a command line that would not come back is refused") {
    const std::vector<std::string> separator = {"reversi-match", "--engine", std::string("name=a\x1f") + "b"};
    REQUIRE(args_error(separator).has_value());
    CHECK(args_error(separator)->find("0x1f") != std::string::npos);
    CHECK(split_args(join_args(separator)) != separator);  // why it is refused
    CHECK(args_error({""}).has_value());                   // joins to "", which is no argument at all
}
