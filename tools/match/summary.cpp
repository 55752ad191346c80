// Text and JSON summaries.
#include "tools/match/summary.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace reversi::match {

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string json_number(double v, int decimals) { return std::isfinite(v) ? fixed(v, decimals) : "null"; }

std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string format_elo(double elo) {
    if (std::isinf(elo)) return elo > 0 ? "+inf" : "-inf";
    if (elo == 0) elo = 0.0;  // no "-0.0"
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f", elo);
    return buf;
}

std::string summary_text(const SummaryInput& in) {
    const auto& st = in.stats;
    std::ostringstream out;
    out << in.names[0] << " vs " << in.names[1] << ": " << st.games << " games"
        << (in.complete ? "" : " (incomplete: " + std::to_string(in.games_planned) + " planned)") << "\n";
    out << "  W/D/L " << st.wins << "/" << st.draws << "/" << st.losses << "  score " << fixed(100.0 * st.score, 1)
        << "%  average disc margin " << (st.average_margin >= 0 ? "+" : "") << fixed(st.average_margin, 2) << " over "
        << st.margin_games << " games\n";
    out << "  Elo " << format_elo(st.elo.elo) << "  95% CI [" << format_elo(st.elo.low) << ", "
        << format_elo(st.elo.high) << "] (" << (st.pairs ? "pentanomial" : "trinomial") << ")  LOS "
        << fixed(100.0 * st.los, 1) << "%\n";
    out << "  pentanomial [0, 0.5, 1, 1.5, 2] = [" << st.pentanomial[0] << ", " << st.pentanomial[1] << ", "
        << st.pentanomial[2] << ", " << st.pentanomial[3] << ", " << st.pentanomial[4] << "] over " << st.pairs
        << " pairs\n";
    if (in.sprt_spec && in.sprt_state) {
        out << "  SPRT elo0 " << in.sprt_spec->elo0 << " elo1 " << in.sprt_spec->elo1 << " alpha "
            << in.sprt_spec->alpha << " beta " << in.sprt_spec->beta << ": LLR " << fixed(in.sprt_state->llr, 3) << " ["
            << fixed(in.sprt_state->lower, 3) << ", " << fixed(in.sprt_state->upper, 3) << "] -> "
            << sprt_decision_name(in.sprt_state->decision) << "\n";
    }
    for (const auto& [what, n] : in.forfeits) out << "  forfeits: " << n << " x " << what << "\n";
    return out.str();
}

std::string summary_json(const SummaryInput& in) {
    const auto& st = in.stats;
    std::ostringstream out;
    out << "{\n";
    out << "  \"engines\": [" << json_string(in.names[0]) << ", " << json_string(in.names[1]) << "],\n";
    out << "  \"games\": " << st.games << ",\n";
    out << "  \"games_planned\": " << in.games_planned << ",\n";
    out << "  \"complete\": " << (in.complete ? "true" : "false") << ",\n";
    out << "  \"wins\": " << st.wins << ",\n  \"draws\": " << st.draws << ",\n  \"losses\": " << st.losses << ",\n";
    out << "  \"score\": " << json_number(st.score, 6) << ",\n";
    out << "  \"average_disc_margin\": " << json_number(st.average_margin) << ",\n";
    out << "  \"margin_games\": " << st.margin_games << ",\n";
    out << "  \"elo\": " << json_number(st.elo.elo, 2) << ",\n";
    out << "  \"elo_ci95\": [" << json_number(st.elo.low, 2) << ", " << json_number(st.elo.high, 2) << "],\n";
    out << "  \"elo_ci95_trinomial\": [" << json_number(st.elo_trinomial.low, 2) << ", "
        << json_number(st.elo_trinomial.high, 2) << "],\n";
    out << "  \"los\": " << json_number(st.los, 6) << ",\n";
    out << "  \"pairs\": " << st.pairs << ",\n";
    out << "  \"pentanomial\": [" << st.pentanomial[0] << ", " << st.pentanomial[1] << ", " << st.pentanomial[2] << ", "
        << st.pentanomial[3] << ", " << st.pentanomial[4] << "],\n";
    out << "  \"forfeits\": {";
    bool first = true;
    for (const auto& [what, n] : in.forfeits) {
        out << (first ? "" : ", ") << json_string(what) << ": " << n;
        first = false;
    }
    out << "},\n";
    if (in.sprt_spec && in.sprt_state) {
        out << "  \"sprt\": {\"elo0\": " << json_number(in.sprt_spec->elo0)
            << ", \"elo1\": " << json_number(in.sprt_spec->elo1) << ", \"alpha\": " << json_number(in.sprt_spec->alpha)
            << ", \"beta\": " << json_number(in.sprt_spec->beta) << ", \"llr\": " << json_number(in.sprt_state->llr)
            << ", \"lower\": " << json_number(in.sprt_state->lower)
            << ", \"upper\": " << json_number(in.sprt_state->upper)
            << ", \"decision\": " << json_string(sprt_decision_name(in.sprt_state->decision)) << "},\n";
    }
    out << "  \"seconds\": " << json_number(in.seconds, 1) << "\n";
    out << "}\n";
    return out.str();
}

}  // namespace reversi::match
