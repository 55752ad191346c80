#pragma once
// Chosen-move quality of the engine's own search (Searcher: iterative deepening, transposition table,
// the dedicated endgame solver where it applies, Multi-ProbCut at the given selectivity) on OBF
// positions whose every move has an exact score: the disc loss of the chosen move (best listed score
// minus the chosen move's score), how often the best move is chosen, the depth reached and the time.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/search/search_types.hpp"

namespace reversi::train {

struct PlaySettings {
    std::optional<int> movetime_ms;  // as "go movetime MS" (protocol/time/time_manager.hpp, 30 ms overhead)
    std::optional<int> depth;        // as "go depth N"
    int selectivity = 100;           // SearchOptions::selectivity (percent, 100 = no selective cut)
    EvalKind evaluation = EvalKind::Pattern;
    MoveOrdering ordering = MoveOrdering::Normal;  // SearchOptions::ordering (the engine's: kEngineOrdering)
    std::string weights;                           // pattern weights file; empty: the embedded default
    std::size_t hash_mib = 16;                     // the engine's default Hash
};

struct PlayQuality {
    long long positions = 0;
    long long best_chosen = 0;  // chose a move with the best score
    long long exact = 0;        // the search ended with an exact (solved) score
    double loss = 0;            // sum of disc losses
    double depth = 0;           // sum of completed depths
    double max_loss = 0;
    std::uint64_t nodes = 0;
    std::chrono::duration<double> time{0};  // wall time of the searches
    double cpu_seconds = 0;                 // process CPU time of the searches (below the wall time when
                                            // other work takes the core: movetime results then mean less)
};

// Searches every entry (the table cleared before each, 1 thread); progress on stderr. An error when the
// weights file cannot be loaded.
[[nodiscard]] Expected<PlayQuality> measure_play(const std::vector<ObfEntry>& entries, const PlaySettings& settings,
                                                 const std::string& label);

}  // namespace reversi::train
