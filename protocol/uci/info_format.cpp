#include "protocol/uci/info_format.hpp"

#include "engine/board/notation.hpp"

namespace reversi::uci {

std::string format_moves(const std::vector<Move>& moves) {
    std::string out;
    for (Move m : moves) {
        if (!out.empty()) out += ' ';
        out += move_to_string(m);
    }
    return out;
}

std::string format_iteration(const IterationReport& r, bool with_multipv) {
    const auto ms = static_cast<std::uint64_t>(r.time.count());
    const std::uint64_t nps = r.nodes * 1000 / (ms == 0 ? 1 : ms);
    std::string line = "info depth " + std::to_string(r.depth) + " seldepth " + std::to_string(r.selective_depth) +
                       " selectivity " + std::to_string(r.selectivity);
    if (r.progress) {
        return line + " nodes " + std::to_string(r.nodes) + " nps " + std::to_string(nps) + " time " +
               std::to_string(ms) + " hashfull " + std::to_string(r.hashfull);
    }
    if (with_multipv) line += " multipv " + std::to_string(r.multipv);
    line += " score cp " + std::to_string(100 * r.score);
    if (r.bound == Bound::Lower) line += " lowerbound";
    if (r.bound == Bound::Upper) line += " upperbound";
    line += " nodes " + std::to_string(r.nodes) + " nps " + std::to_string(nps) + " time " + std::to_string(ms) +
            " hashfull " + std::to_string(r.hashfull);
    if (!r.pv.empty()) line += " pv " + format_moves(r.pv);
    return line;
}

std::string format_stats(const SearchResult& r) {
    return "info string stats nodes " + std::to_string(r.nodes) + " leaves " + std::to_string(r.leaves) + " time " +
           std::to_string(r.time.count()) + " algo " + std::string(algorithm_name(r.algorithm));
}

}  // namespace reversi::uci
