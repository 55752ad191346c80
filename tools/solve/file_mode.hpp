#pragma once
// reversi-solve on the 8x8 board: the positions of an OBF file solved one by one (file_mode.cpp), a
// table row each, the totals and the node count as Edax makes it.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/endgame/solver.hpp"

namespace reversi::solve_tool {

struct FileRun {
    std::string file;
    std::vector<ObfEntry> entries;
    long long base = 1;  // the FFO number of the file's first position
    long long first = 1;
    long long last = 1;
    std::size_t hash_mib = 256;
    endgame::SolveOptions options;  // threads, aspiration, selective passes, split (the window: `wld`)
    bool wld = false;               // win/loss/draw: the window (-1, 1), results compared by sign
    bool simple_ordering = false;   // --ordering simple: no pattern evaluation, no selective passes
    bool keep_hash = false;
    bool verbose = false;
};

// Solves positions first..last of the run's file; prints the settings, a row per position and the
// totals on stdout (every root move on stderr with `verbose`). Returns the exit status: 0, 1 when a
// score (with --wld, a result) or a best move differs from the file's, 2 when a solve fails.
[[nodiscard]] int solve_file(const FileRun& run);

}  // namespace reversi::solve_tool
