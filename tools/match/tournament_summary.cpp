// Text and JSON summaries of a tournament.
#include "tools/match/tournament_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "tools/match/standings.hpp"

namespace reversi::match {

namespace {

int index_of(const std::vector<std::string>& names, const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    return static_cast<int>(it - names.begin());
}

std::vector<Standing> standings_of(const TournamentSummary& t) {
    std::vector<PairResult> results;
    std::vector<MatchStatistics> stats;
    for (const auto& p : t.pairs) {
        results.push_back(pair_result(index_of(t.names, p.names[0]), index_of(t.names, p.names[1]), p.stats));
        stats.push_back(p.stats);
    }
    return compute_standings(static_cast<int>(t.names.size()), results, stats);
}

int games_of(const TournamentSummary& t) {
    int games = 0;
    for (const auto& p : t.pairs) games += p.stats.games;
    return games;
}

// Every line of `text` but the first gets `indent` in front (a nested JSON object).
std::string indent_tail(const std::string& text, const std::string& indent) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        out += text[i];
        if (text[i] == '\n' && i + 1 < text.size()) out += indent;
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

}  // namespace

std::string tournament_text(const TournamentSummary& t) {
    std::ostringstream out;
    out << tournament_kind_name(t.kind) << " tournament of " << t.names.size() << " engines, " << t.pairs.size()
        << " pairings: " << games_of(t) << " games"
        << (t.complete ? "" : " (incomplete: " + std::to_string(t.games_planned) + " planned)") << "\n";
    for (const auto& p : t.pairs) out << summary_text(p);
    const auto table = standings_of(t);
    std::size_t width = 6;
    for (const auto& n : t.names) width = std::max(width, n.size());
    out << "standings (Elo relative to the field: " << kStandingsMethod << ")\n";
    out << "  rank  " << std::string("engine") + std::string(width - 6, ' ') << "  points   games  score     Elo\n";
    int rank = 1;
    for (const auto& s : table) {
        const std::string& name = t.names[static_cast<std::size_t>(s.engine)];
        char line[160];
        std::snprintf(line, sizeof line, "  %4d  %s%s  %6.1f  %6d  %5.1f%%  %6s\n", rank++, name.c_str(),
                      std::string(width - name.size(), ' ').c_str(), s.points, s.games, 100.0 * s.score,
                      format_elo(s.elo).c_str());
        out << line;
    }
    return out.str();
}

std::string tournament_json(const TournamentSummary& t) {
    std::ostringstream out;
    out << "{\n";
    out << "  \"tournament\": " << json_string(tournament_kind_name(t.kind)) << ",\n";
    out << "  \"engines\": [";
    for (std::size_t i = 0; i < t.names.size(); ++i) out << (i ? ", " : "") << json_string(t.names[i]);
    out << "],\n";
    out << "  \"games\": " << games_of(t) << ",\n";
    out << "  \"games_planned\": " << t.games_planned << ",\n";
    out << "  \"complete\": " << (t.complete ? "true" : "false") << ",\n";
    out << "  \"pairings\": [\n";
    for (std::size_t k = 0; k < t.pairs.size(); ++k) {
        out << "    " << indent_tail(summary_json(t.pairs[k]), "    ") << (k + 1 < t.pairs.size() ? ",\n" : "\n");
    }
    out << "  ],\n";
    out << "  \"standings_method\": " << json_string(kStandingsMethod) << ",\n";
    out << "  \"standings\": [\n";
    const auto table = standings_of(t);
    for (std::size_t r = 0; r < table.size(); ++r) {
        const auto& s = table[r];
        out << "    {\"rank\": " << r + 1
            << ", \"engine\": " << json_string(t.names[static_cast<std::size_t>(s.engine)])
            << ", \"points\": " << json_number(s.points, 1) << ", \"games\": " << s.games << ", \"wins\": " << s.wins
            << ", \"draws\": " << s.draws << ", \"losses\": " << s.losses << ", \"score\": " << json_number(s.score, 6)
            << ", \"elo\": " << json_number(s.elo, 2) << "}" << (r + 1 < table.size() ? ",\n" : "\n");
    }
    out << "  ],\n";
    out << "  \"seconds\": " << json_number(t.seconds, 1) << "\n";
    out << "}\n";
    return out.str();
}

}  // namespace reversi::match
