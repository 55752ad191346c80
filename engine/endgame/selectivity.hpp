#pragma once
// Selective (probcut) passes of the exact solver.
//
// A selective pass of level L > 0 searches like the exact solver, but at a node with
// kProbCutMinEmpties or more empties it first runs a shallow null-window search on the pattern
// evaluation (depth EndgameProbCut::shallow) and predicts the exact score as a * v + b (discs), with
// the residual standard deviation sigma measured on exactly solved positions. When the prediction is
// above beta (below alpha) by kSelectivityT[L] * sigma, the node returns beta (alpha) without a search.
// The root runs passes of decreasing selectivity (solver.cpp), each centred on the previous score and
// sharing the transposition table, and always ends with an exact pass (level 0, no cut), so the
// result stays exact: the selective passes only fill the table with good moves and a good guess.
// The table records each bound's level (endgame_tt.hpp): a selective bound never cuts a less selective
// search.
#include <array>
#include <cstddef>

namespace reversi::endgame {

// Selectivity levels: 0 = exact; higher = more selective (smaller confidence t). A level is a step, not
// the midgame's confidence in percent (kMaxSelectivityPercent, engine/search/search_types.hpp).
inline constexpr int kMaxSelectivityLevel = 4;
// Confidence t of each level (level 0: no cut).
inline constexpr std::array<double, kMaxSelectivityLevel + 1> kSelectivityT = {0.0, 2.6, 2.0, 1.5, 1.0};
// The same levels as the two-sided normal confidence in percent, the unit the midgame search reports
// its selectivity in (engine/search/probcut_search.hpp; 100 = no cut): round(100 * erf(t / sqrt(2))).
inline constexpr std::array<int, kMaxSelectivityLevel + 1> kSelectivityPercent = {100, 99, 95, 87, 68};

// Empties of the first row of the calibration table.
inline constexpr int kProbCutMinEmpties = 10;
// Default fewest empties of a node where a selective pass tries a probcut (SolveOptions::
// probcut_min_empties; from there its table entries carry the pass's level: below, the subtree never
// cuts, so its bounds are exact). The shallow pattern search costs tens to hundreds of evaluations,
// far more than a node of the exact search: below about 14 empties the subtree is too cheap for it to pay.
inline constexpr int kDefaultProbCutEmpties = 14;

// Prediction of the exact score of a position with `empties` empties from the pattern search of depth
// `shallow` (v in discs, side to move): exact ~ a * v + b, residual standard deviation sigma (discs).
struct EndgameProbCut {
    int shallow = 0;
    double a = 1.0;
    double b = 0.0;
    double sigma = 0.0;
};

// The depth of the shallow search at a node with `empties` empties.
[[nodiscard]] constexpr int probcut_shallow_depth(int empties) noexcept {
    return empties < 14 ? 2 : (empties < 20 ? 3 : 4);
}

// Fitted by (102.8 s of processor time on this machine, 2026-11-21):
//   build/release/tools/reversi-solve --file ../shared/data/endgame-hard/hard-25.obf --calibrate-probcut --samples 120
// (tools/solve/calibrate.cpp): for each empties count 10..20, 120 positions reached by random moves from
// the hard-25 positions, solved exactly; least squares of the exact score on the pattern search value
// at depth probcut_shallow_depth(empties). Random continuations make harder positions than games, so the
// sigmas (about 7 discs) are on the cautious side. Index: empties - kProbCutMinEmpties; positions with
// more empties than the table use its last row (depth 4).
inline constexpr std::array<EndgameProbCut, 11> kEndgameProbCutTable = {{
    {2, 0.934, 0.931, 6.447},   // 10 empties
    {2, 1.000, -0.031, 8.078},  // 11 empties
    {2, 0.993, 1.497, 7.695},   // 12 empties
    {2, 1.107, -0.177, 7.652},  // 13 empties
    {3, 1.098, -0.001, 7.677},  // 14 empties
    {3, 0.931, 0.412, 7.351},   // 15 empties
    {3, 1.036, -0.676, 8.424},  // 16 empties
    {3, 1.064, 0.353, 6.827},   // 17 empties
    {3, 1.171, -3.217, 7.581},  // 18 empties
    {3, 1.131, -0.510, 6.981},  // 19 empties
    {4, 1.167, 1.106, 7.156},   // 20 empties
}};

static_assert(
    [] {
        for (std::size_t i = 0; i < kEndgameProbCutTable.size(); ++i) {
            if (kEndgameProbCutTable[i].shallow != probcut_shallow_depth(kProbCutMinEmpties + static_cast<int>(i))) {
                return false;
            }
        }
        return true;
    }(),
    "each row's shallow depth is the one the calibration fitted (probcut_shallow_depth)");

[[nodiscard]] constexpr const EndgameProbCut& endgame_probcut(int empties) noexcept {
    std::size_t i = empties <= kProbCutMinEmpties ? 0 : static_cast<std::size_t>(empties - kProbCutMinEmpties);
    if (i >= kEndgameProbCutTable.size()) i = kEndgameProbCutTable.size() - 1;
    return kEndgameProbCutTable[i];
}

}  // namespace reversi::endgame
