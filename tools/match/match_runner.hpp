#pragma once
// The match (or tournament, see tournament.hpp): game i of a pairing uses opening i/2 (colour pair),
// the pairing's first engine is black in even games and white in odd ones. N worker threads each own
// one process (or connection) per engine, started when first needed, and take the next unplayed game of
// any pairing; every finished game is stored at once, the statistics and the progress line are updated,
// and an SPRT (two engines only) stops the scheduling of new games as soon as it decides.
#include <optional>
#include <string>
#include <vector>

#include "engine/data/openings.hpp"
#include "tools/match/engine_player.hpp"
#include "tools/match/sprt.hpp"
#include "tools/match/tournament.hpp"

namespace reversi::match {

struct MatchConfig {
    std::vector<EngineConfig> engines;  // two or more
    TournamentKind tournament = TournamentKind::RoundRobin;
    std::vector<data::Opening> openings;  // opening of pair k: openings[k % size]
    Variant variant = Variant::Standard;
    int games = 2;  // per pairing
    int concurrency = 1;
    PlayerTimeouts timeouts;
    std::optional<SprtSpec> sprt;
    std::string out_prefix = "match";
    bool resume = false;
    bool overwrite = false;
    std::string fingerprint;  // identifies the match in the results log (resume check)
    bool progress = false;
    bool json_to_stdout = false;
};

// Runs (or resumes) the match, prints the summary on stdout and writes <prefix>.json.
// Returns the process exit code: 0 done, 1 on an error (message on stderr).
[[nodiscard]] int run_match(const MatchConfig& config);

}  // namespace reversi::match
