#pragma once
// The match: game i uses opening i/2 (colour pair), engine 0 is black in even games and white in odd
// ones. N worker threads each own one process (or connection) per engine and take the next unplayed
// game; every finished game is stored at once, the statistics and the progress line are updated, and
// an SPRT (when asked) stops the scheduling of new games as soon as it decides.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "tools/match/engine_player.hpp"
#include "tools/match/openings.hpp"
#include "tools/match/sprt.hpp"

namespace reversi::match {

struct MatchConfig {
    std::array<EngineConfig, 2> engines;
    std::vector<Opening> openings;   // opening of pair k: openings[k % size]
    Variant variant = Variant::Standard;
    int games = 2;
    int concurrency = 1;
    PlayerTimeouts timeouts;
    std::optional<SprtSpec> sprt;
    std::string out_prefix = "match";
    bool resume = false;
    bool overwrite = false;
    std::string fingerprint;         // identifies the match in the results log (resume check)
    bool progress = false;
    bool json_to_stdout = false;
};

// Runs (or resumes) the match, prints the summary on stdout and writes <prefix>.json.
// Returns the process exit code: 0 done, 1 on an error (message on stderr).
[[nodiscard]] int run_match(const MatchConfig& config);

}  // namespace reversi::match
