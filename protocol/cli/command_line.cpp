#include "protocol/cli/command_line.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <iostream>

namespace reversi::cli {

std::string ParsedArgs::get(const std::string& name, const std::string& fallback) const {
    const auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
}

Expected<long long> ParsedArgs::get_int(const std::string& name, long long fallback, long long min,
                                        long long max) const {
    const auto it = values.find(name);
    if (it == values.end()) return fallback;
    long long value = 0;
    const auto& text = it->second;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return make_error("--" + name + ": '" + text + "' is not a whole number");
    }
    if (value < min || value > max) {
        return make_error("--" + name + ": " + text + " is out of range [" + std::to_string(min) + ", " +
                          std::to_string(max) + "]");
    }
    return value;
}

std::string help_text(const ProgramSpec& spec) {
    std::string out = "Usage: " + spec.usage + "\n\n" + spec.description + "\n\nOptions:\n";
    auto add = [&](const std::string& flag, const std::string& help) {
        std::string line = "  " + flag;
        if (line.size() < 28)
            line.resize(28, ' ');
        else
            line += "  ";
        out += line + help + "\n";
    };
    for (const auto& opt : spec.options) add("--" + opt.name + (opt.takes_value ? " VALUE" : ""), opt.help);
    add("--help", "print this help and exit");
    add("--version", "print the version and exit");
    if (!spec.epilog.empty()) out += "\n" + spec.epilog + "\n";
    return out;
}

namespace {

// One option, argv[i] = "--name" or "--name=value", into `args` (its value from argv[i + 1] when it takes
// one and has none inline: i is moved past it). nullopt, or why it cannot be taken.
std::optional<std::string> take_option(const ProgramSpec& spec, int argc, char** argv, int& i, ParsedArgs& args) {
    std::string name = std::string(argv[i]).substr(2);
    std::optional<std::string> inline_value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
        inline_value = name.substr(eq + 1);
        name.erase(eq);
    }
    const OptionSpec* match = nullptr;
    for (const auto& opt : spec.options) {
        if (opt.name == name) match = &opt;
    }
    if (!match) return "unknown option '--" + name + "'";
    if (!match->takes_value) {
        if (inline_value) return "option '--" + name + "' takes no value";
        args.values.insert_or_assign(name, std::string(1, '1'));  // (GCC 12 -Wrestrict false positive on = "1")
        return std::nullopt;
    }
    if (inline_value) {
        args.values[name] = *inline_value;
    } else if (i + 1 < argc) {
        args.values[name] = argv[++i];
    } else {
        return "option '--" + name + "' needs a value";
    }
    return std::nullopt;
}

}  // namespace

ParseOutcome parse_command_line(const ProgramSpec& spec, int argc, char** argv) {
    ParseOutcome outcome;
    auto fail = [&](const std::string& message) {
        std::cerr << spec.name << ": " << message << "\nUsage: " << spec.usage << "\nTry '" << spec.name
                  << " --help'.\n";
        outcome.exit_code = 2;
        return outcome;
    };
    bool options_ended = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--" && !options_ended && spec.takes_positional) {  // what follows is no option
            options_ended = true;
            continue;
        }
        // An option is --name: a board string may start with "--" too (two empty squares).
        const bool option = !options_ended && arg.size() > 2 && arg.starts_with("--") &&
                            std::isalpha(static_cast<unsigned char>(arg[2]));
        if (!options_ended && (arg == "--help" || arg == "-h")) {
            std::cout << help_text(spec);
            outcome.exit_code = 0;
            return outcome;
        }
        if (!options_ended && arg == "--version") {
            std::cout << spec.name << " " << REVERSI_VERSION << "\n";
            outcome.exit_code = 0;
            return outcome;
        }
        if (option) {
            if (auto why = take_option(spec, argc, argv, i, outcome.args)) return fail(*why);
        } else if (spec.takes_positional) {
            outcome.args.positional.push_back(arg);
        } else if (!options_ended && arg.starts_with("--")) {
            return fail("unknown option '" + arg + "'");
        } else {
            return fail("unexpected argument '" + arg + "' (options start with --)");
        }
    }
    return outcome;
}

}  // namespace reversi::cli
