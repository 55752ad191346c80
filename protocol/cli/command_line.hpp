#pragma once
// Command-line handling shared by every binary: --help and --version, and a tiny parser for
// "--name value" / "--name=value" options with clear errors.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/expected.hpp"

namespace reversi::cli {

struct OptionSpec {
    std::string name;  // without the leading dashes
    bool takes_value = true;
    std::string help;  // one line for --help
};

struct ParsedArgs {
    std::map<std::string, std::string> values;  // flags without a value map to "1"
    std::vector<std::string> positional;

    [[nodiscard]] bool has(const std::string& name) const { return values.count(name) != 0; }
    [[nodiscard]] std::string get(const std::string& name, const std::string& fallback) const;
    [[nodiscard]] Expected<long long> get_int(const std::string& name, long long fallback, long long min,
                                              long long max) const;
};

struct ProgramSpec {
    std::string name;         // reversi-engine, reversi-bench, ...
    std::string usage;        // "reversi-bench [options]"
    std::string description;  // a paragraph for --help
    std::vector<OptionSpec> options;
    std::string epilog;  // extra text at the end of --help
    // False for a program that takes options only: a bare argument (a typo such as "-hash 64", a
    // forgotten "--") is an error instead of being ignored.
    bool takes_positional = true;
};

[[nodiscard]] std::string help_text(const ProgramSpec& spec);

// Parses argv. --help and --version are handled here: their text goes to stdout and `exit_code` is set
// to 0. A bad option prints an error and the usage to stderr and sets `exit_code` to 2.
struct ParseOutcome {
    ParsedArgs args;
    std::optional<int> exit_code;
};
[[nodiscard]] ParseOutcome parse_command_line(const ProgramSpec& spec, int argc, char** argv);

}  // namespace reversi::cli
