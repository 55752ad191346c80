#pragma once
// The recorded games of a match or tournament and what is reported from them: outcomes per pairing,
// forfeits, the SPRT, the summary (text and JSON). Shared by the local runner and the coordinator of a
// distributed match (distributed.hpp). Not thread-safe: the caller locks.
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/match/game.hpp"
#include "tools/match/match_runner.hpp"
#include "tools/match/sprt.hpp"
#include "tools/match/statistics.hpp"
#include "tools/match/tournament.hpp"

namespace reversi::match {

class MatchTally {
public:
    explicit MatchTally(const MatchConfig& config);

    [[nodiscard]] int pairings() const noexcept { return static_cast<int>(pairings_.size()); }
    [[nodiscard]] const Pairing& pairing(int k) const { return pairings_[static_cast<std::size_t>(k)]; }
    [[nodiscard]] const std::vector<std::string>& names() const noexcept { return names_; }
    // The names of a pairing's two engines, first engine first.
    [[nodiscard]] std::array<std::string, 2> pair_names(const Pairing& p) const;
    // Every game of the match, in scheduling order.
    [[nodiscard]] const std::vector<int>& schedule() const noexcept { return schedule_; }
    // A game number of this match (a shorter rerun ignores games beyond its range).
    [[nodiscard]] bool in_match(int index) const;
    // The game of this number within its pairing, set up as the runner plays it (opening, colours).
    [[nodiscard]] GameSpec game_spec(int index) const;
    // The engine numbers of a game's two players (the pairing's), for the players and the time controls.
    [[nodiscard]] std::array<std::size_t, 2> game_engines(int index) const;

    // Records a finished game (once per game: the caller checks `recorded`), updates the SPRT.
    void record(const GameResult& r);
    [[nodiscard]] bool recorded(int index) const { return done_.count(index) != 0; }
    [[nodiscard]] int recorded_count() const noexcept { return static_cast<int>(done_.size()); }
    [[nodiscard]] int total_games() const noexcept { return static_cast<int>(schedule_.size()); }
    // The SPRT has decided (no more games need be scheduled).
    [[nodiscard]] bool decided() const noexcept;
    [[nodiscard]] MatchStatistics statistics(int pairing) const;

    // Prints the summary (text, or JSON with json_to_stdout) and writes <prefix>.json. `complete`: no
    // error and not interrupted.
    void report(bool complete, double seconds) const;

private:
    const MatchConfig& config_;
    std::vector<std::string> names_;
    std::vector<Pairing> pairings_;
    std::vector<int> schedule_;
    std::set<int> done_;
    std::vector<std::vector<GameOutcome>> outcomes_;    // per pairing, from its first engine's side
    std::vector<std::map<std::string, int>> forfeits_;  // per pairing
    std::optional<SprtState> sprt_state_;
};

}  // namespace reversi::match
