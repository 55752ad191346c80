#pragma once
// Formatting of the search's reports as UCI lines. Scores are in discs in the engine; the protocol prints
// centipawn-style units: score cp = 100 * discs. `selectivity P` is the Multi-ProbCut confidence of the
// iteration in percent (100: no selective cut, e.g. an exact solve).
#include <string>
#include <vector>

#include "engine/board/bitboard.hpp"
#include "engine/search/search_types.hpp"

namespace reversi::uci {

// "f5 d6 pass c3"
[[nodiscard]] std::string format_moves(const std::vector<Move>& moves);
// info depth D seldepth S selectivity P [multipv k] score cp X [lowerbound|upperbound] nodes N nps N time MS hashfull H
// pv ...; a progress report (IterationReport::progress, during a long solve) has no score and no pv. During an
// exact solve (depth = empties) a root move proved best so far gives `lowerbound`, a failed pass its bound.
[[nodiscard]] std::string format_iteration(const IterationReport& report, bool with_multipv);
// info string stats nodes N leaves L time MS algo NAME
[[nodiscard]] std::string format_stats(const SearchResult& result);

}  // namespace reversi::uci
