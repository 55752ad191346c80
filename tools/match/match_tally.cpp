#include "tools/match/match_tally.hpp"

#include <spdlog/spdlog.h>
#include <cstdio>

#include "engine/core/replace_file.hpp"
#include "tools/match/summary.hpp"
#include "tools/match/tournament_summary.hpp"

namespace reversi::match {

namespace {

// `local`: the game's number inside its pairing (games 2k and 2k+1 form colour pair k).
GameOutcome outcome_for_first_engine(const GameResult& r, int local) {
    GameOutcome o;
    o.index = local;
    o.points = r.points(0);
    if (r.fault == Fault::None) o.margin = r.margin(0);
    return o;
}

}  // namespace

MatchTally::MatchTally(const MatchConfig& config) : config_(config) {
    for (const auto& e : config.engines) names_.push_back(e.name);
    pairings_ = tournament_pairings(static_cast<int>(names_.size()), config.tournament);
    outcomes_.resize(pairings_.size());
    forfeits_.resize(pairings_.size());
    schedule_ = tournament_schedule(pairings(), config.games);
}

std::array<std::string, 2> MatchTally::pair_names(const Pairing& p) const {
    return {names_[static_cast<std::size_t>(p.first)], names_[static_cast<std::size_t>(p.second)]};
}

bool MatchTally::in_match(int index) const {
    return index >= 0 && index < 2 * pairings() * ((config_.games + 1) / 2) &&
           locate_game(index, pairings()).local < config_.games;
}

GameSpec MatchTally::game_spec(int index) const {
    const GameSlot slot = locate_game(index, pairings());
    GameSpec spec;
    spec.index = index;
    spec.opening_index = (slot.local / 2) % static_cast<int>(config_.openings.size());
    spec.opening = config_.openings[static_cast<std::size_t>(spec.opening_index)];
    spec.variant = config_.variant;
    spec.black = slot.local % 2 == 0 ? 0 : 1;
    return spec;
}

std::array<std::size_t, 2> MatchTally::game_engines(int index) const {
    const Pairing& p = pairing(locate_game(index, pairings()).pairing);
    return {static_cast<std::size_t>(p.first), static_cast<std::size_t>(p.second)};
}

void MatchTally::record(const GameResult& r) {
    const GameSlot slot = locate_game(r.index, pairings());
    const auto k = static_cast<std::size_t>(slot.pairing);
    done_.insert(r.index);
    outcomes_[k].push_back(outcome_for_first_engine(r, slot.local));
    if (r.fault != Fault::None) {
        ++forfeits_[k][std::string(fault_name(r.fault)) + " by " +
                       pair_names(pairings_[k])[static_cast<std::size_t>(r.faulty_engine)]];
    }
    if (config_.sprt) sprt_state_ = sprt(*config_.sprt, compute_statistics(outcomes_[0]));
}

bool MatchTally::decided() const noexcept { return sprt_state_ && sprt_state_->decision != SprtDecision::Continue; }

MatchStatistics MatchTally::statistics(int pairing) const {
    return compute_statistics(outcomes_[static_cast<std::size_t>(pairing)]);
}

void MatchTally::report(bool complete, double seconds) const {
    std::vector<SummaryInput> pairs;
    for (std::size_t k = 0; k < pairings_.size(); ++k) {
        SummaryInput in;
        in.names = pair_names(pairings_[k]);
        in.stats = compute_statistics(outcomes_[k]);
        in.sprt_spec = config_.sprt;
        in.sprt_state = sprt_state_;
        in.forfeits = forfeits_[k];
        in.games_planned = config_.games;
        in.complete = complete && (static_cast<int>(outcomes_[k].size()) == config_.games || decided());
        in.seconds = seconds;
        pairs.push_back(std::move(in));
    }
    std::string json, text;
    if (pairs.size() == 1 && names_.size() == 2) {  // a plain match: the two-engine summary
        json = summary_json(pairs[0]);
        text = summary_text(pairs[0]);
    } else {
        TournamentSummary t;
        t.kind = config_.tournament;
        t.names = names_;
        t.pairs = std::move(pairs);
        t.games_planned = total_games();
        t.complete = complete && recorded_count() == total_games();
        t.seconds = seconds;
        json = tournament_json(t);
        text = tournament_text(t);
    }
    // Replaced whole, so that a reader never sees half a summary.
    if (auto r = replace_file(config_.out_prefix + ".json", std::string_view(json), "summary"); !r)
        spdlog::warn("{}", r.error().message);
    std::fputs((config_.json_to_stdout ? json : text).c_str(), stdout);
    std::fflush(stdout);
}

}  // namespace reversi::match
