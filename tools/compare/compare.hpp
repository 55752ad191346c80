#pragma once
// reversi-compare: the measurements (one row per algorithm and position, one cell per depth) and
// their presentations (text tables, CSV, SVG chart), plus the synthetic-tree ratios.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/search/search_types.hpp"

namespace reversi::compare {

struct NamedPosition {
    std::string name;  // "FFO #40", "line 3 of file.obf", "board 1"
    Position position;
};

struct Cell {
    bool done = false;  // false: not run, or stopped by the time limit
    std::uint64_t nodes = 0;
    std::uint64_t leaves = 0;
    int score = 0;
    Move best = kNoMove;
    double seconds = 0;
};

struct Measurements {
    std::vector<NamedPosition> positions;
    std::vector<Algorithm> algorithms;
    std::vector<int> depths;
    // cells[position][algorithm][depth index]
    std::vector<std::vector<std::vector<Cell>>> cells;
};

// The per-position tables, then the totals over positions (nodes and leaves, with the ratio to
// alphabeta over the cells both completed).
[[nodiscard]] std::string format_tables(const Measurements& m);
[[nodiscard]] std::string format_csv(const Measurements& m);
// Log-scale chart of total nodes (over the positions) against depth, one polyline per algorithm;
// a depth appears for an algorithm only when every position completed it.
[[nodiscard]] std::string format_svg(const Measurements& m);
// Alpha-beta's leaves over the minimal tree n^ceil(d/2) + n^floor(d/2) - 1 on synthetic uniform trees
// with perfect, good (best first with probability 0.8) and random (natural) ordering.
[[nodiscard]] std::string synthetic_tree_ratios();

}  // namespace reversi::compare
