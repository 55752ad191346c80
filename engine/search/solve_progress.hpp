#pragma once
// Turns the endgame solver's progress (engine/endgame/solve_control.hpp's RootProgress) into the search's
// IterationReports, at depth = empties:
//   a root move of the exact pass that is the new best: the root's score is at least its score
//     (Bound::Lower), pv = that move;
//   the end of a pass that failed low or high (aspiration): the pass's bound; the end of a selective pass:
//     its score at its selectivity (percent, as the midgame search: 99, 95, 87, 68);
//   a periodic report: IterationReport::progress (depth, nodes and time only);
// the end of the final exact pass is not reported here: the Searcher reports the solve's result itself.
#include <chrono>
#include <cstdint>
#include <optional>

#include "engine/endgame/solve_control.hpp"
#include "engine/search/search_types.hpp"

namespace reversi {

class SolveProgress {
public:
    struct Base {
        int empties = 0;
        bool wld = false;
        std::uint64_t nodes_before = 0;
        std::chrono::steady_clock::time_point search_start;
        int hashfull = 0;
    };
    explicit SolveProgress(const Base& base) : base_(base) {}

    // The report for `p` (none when it adds nothing a GUI would show). Not thread-safe: the solver makes
    // its progress calls one at a time.
    [[nodiscard]] std::optional<IterationReport> translate(const endgame::RootProgress& p);

private:
    [[nodiscard]] IterationReport skeleton(const endgame::RootProgress& p) const;
    // True when `r` says what the last report said (a pass that fails high on its first move ends with
    // the same bound that move gave).
    [[nodiscard]] bool repeats(const IterationReport& r);

    Base base_;
    int level_ = 0;  // the selectivity level of the pass running (from its last report)
    std::optional<IterationReport> last_;
};

// The endgame selectivity level as the percent confidence the reports use (100 for the exact level 0).
[[nodiscard]] int endgame_selectivity_percent(int level) noexcept;

}  // namespace reversi
