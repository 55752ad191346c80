#pragma once
// The summary of a tournament of more than two engines: one two-engine summary per pairing (from the
// pairing's first engine's side, as summary.hpp writes it) and the standings (standings.hpp).
// A plain match of two engines keeps the two-engine summary of summary.hpp unchanged.
#include <string>
#include <vector>

#include "tools/match/summary.hpp"
#include "tools/match/tournament.hpp"

namespace reversi::match {

struct TournamentSummary {
    TournamentKind kind = TournamentKind::RoundRobin;
    std::vector<std::string> names;   // every engine
    std::vector<SummaryInput> pairs;  // one per pairing, in tournament_pairings order
    int games_planned = 0;            // over all pairings
    bool complete = false;
    double seconds = 0;
};

[[nodiscard]] std::string tournament_text(const TournamentSummary& t);
[[nodiscard]] std::string tournament_json(const TournamentSummary& t);

}  // namespace reversi::match
