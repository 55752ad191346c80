#pragma once
// The match summary for people (text) and for scripts (JSON).
#include <array>
#include <map>
#include <optional>
#include <string>

#include "tools/match/sprt.hpp"
#include "tools/match/statistics.hpp"

namespace reversi::match {

struct SummaryInput {
    std::array<std::string, 2> names;
    MatchStatistics stats;
    std::optional<SprtSpec> sprt_spec;
    std::optional<SprtState> sprt_state;
    std::map<std::string, int> forfeits;  // "crash by A" -> count
    int games_planned = 0;
    bool complete = false;  // every planned game played (or the SPRT decided)
    double seconds = 0;     // wall time of this run
};

// printf("%.*f")
[[nodiscard]] std::string fixed(double v, int decimals);
// JSON number with `decimals` decimals, or null for infinities and NaN.
[[nodiscard]] std::string json_number(double v, int decimals = 4);
// JSON string literal with escapes.
[[nodiscard]] std::string json_string(const std::string& s);
// "+123.4", "+inf", "-inf"
[[nodiscard]] std::string format_elo(double elo);
[[nodiscard]] std::string summary_text(const SummaryInput& in);
[[nodiscard]] std::string summary_json(const SummaryInput& in);

}  // namespace reversi::match
