#pragma once
// Parsers for the UCI-style commands that carry arguments: go, setoption and position. They only turn
// tokens into values (no session state), so they can be unit-tested and fuzzed on their own. Every error
// names the token that was wrong.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/board/variant.hpp"
#include "engine/core/expected.hpp"
#include "engine/search/search_types.hpp"

namespace reversi::uci {

struct GoCommand {
    std::optional<int> depth;
    std::optional<std::uint64_t> nodes;
    std::optional<std::int64_t> movetime_ms;
    std::optional<std::int64_t> black_time_ms;  // btime
    std::optional<std::int64_t> white_time_ms;  // wtime
    std::int64_t black_inc_ms = 0;              // binc
    std::int64_t white_inc_ms = 0;              // winc
    std::optional<int> movestogo;
    bool infinite = false;
    bool ponder = false;  // search the position (the expected reply played) until ponderhit or stop
    bool solve = false;
    bool wld = false;
    std::vector<Move> search_moves;
    std::optional<Algorithm> algorithm;
};

// `tokens` are the words after "go". Negative clock times (some GUIs send them when a flag fell) are
// read as 0.
[[nodiscard]] Expected<GoCommand> parse_go(const std::vector<std::string_view>& tokens);

struct OptionAssignment {
    std::string name;   // as written (matched case-insensitively later)
    std::string value;  // may be empty (button options)
};
// `tokens` are the words after "setoption": name <words...> [value <words...>].
[[nodiscard]] Expected<OptionAssignment> parse_setoption(const std::vector<std::string_view>& tokens);

struct PositionSetup {
    Position start;           // the position the moves are played from
    std::vector<Move> moves;  // the moves played from `start`
    Position current;         // after the moves
};
// `line` is the whole command line ("position ..."). startpos | board <64 chars> <side> |
// variant <name> [board <64 chars> <side>] | obf <line>, then optionally moves m1 m2 ...
[[nodiscard]] Expected<PositionSetup> parse_position(std::string_view line);

}  // namespace reversi::uci
