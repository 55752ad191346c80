// The programs' command-line parser (protocol/cli/command_line.hpp): options, arguments, and the boards
// that start with "--".
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "protocol/cli/command_line.hpp"

using reversi::cli::ParseOutcome;
using reversi::cli::ProgramSpec;

namespace {

ParseOutcome parse(const ProgramSpec& spec, std::vector<std::string> words) {
    words.insert(words.begin(), spec.name);
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    return reversi::cli::parse_command_line(spec, static_cast<int>(argv.size()), argv.data());
}

ProgramSpec spec(bool takes_positional) {
    ProgramSpec s;
    s.name = "tool";
    s.usage = "tool [options] [BOARD ...]";
    s.options = {{"depth", true, "a depth"}, {"quick", false, "a flag"}};
    s.takes_positional = takes_positional;
    return s;
}

}  // namespace

TEST_CASE("command line: a board that starts with '--' is an argument, and '--' ends the options") {
    const std::string board = "----------OOOOO---OOOX---OOOXX-----XOXO-----XOO----X------------ X";
    const auto boards = parse(spec(true), {"--depth", "4", board, "--quick"});
    REQUIRE_FALSE(boards.exit_code);  // before: unknown option '------...'
    CHECK(boards.args.positional == std::vector<std::string>{board});
    CHECK(boards.args.get("depth", "") == "4");
    CHECK(boards.args.has("quick"));
    const auto ended = parse(spec(true), {"--quick", "--", "--depth", "--help"});
    REQUIRE_FALSE(ended.exit_code);
    CHECK(ended.args.positional == std::vector<std::string>{"--depth", "--help"});
    CHECK_FALSE(ended.args.has("depth"));
    CHECK(parse(spec(true), {"--depth=5"}).args.get("depth", "") == "5");
    CHECK(parse(spec(true), {"--unknown"}).exit_code == 2);
}

TEST_CASE("command line: a program without arguments refuses a bare word, '--' and '--5' as such") {
    CHECK(parse(spec(false), {"--depth", "4"}).args.get("depth", "") == "4");
    for (const char* word : {"-depth", "--", "--5", "board"}) {
        CAPTURE(word);
        CHECK(parse(spec(false), {word}).exit_code == 2);
    }
    CHECK(parse(spec(false), {"--help"}).exit_code == 0);
}
