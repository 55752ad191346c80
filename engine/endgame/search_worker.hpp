#pragma once
// One thread's exact search: fail-soft PVS with null windows, sharing the transposition table.
//   empties <= 4          solve_small (last_empties.hpp): no move list, no hashing
//   5 .. kShallowEmpties  shallow search: no hashing, parity ordering (odd quadrants first)
//   above                 ordered search: fastest-first, and from kHashEmpties on TT bounds and moves, stability
//   cutoff, enhanced transposition
//                         cutoff (kEtcEmpties and above), fastest-first / shallow-search move ordering
// With a selectivity level > 0 (selectivity.hpp) the worker probcuts at set_probcut_empties() and more
// (needs the pattern evaluation) and stores its bounds with that level; level 0 (the default) is exact.
// The stop flag is polled (relaxed load) at every hashed node; after a stop the results are meaningless
// and aborted() is true (nothing more is stored in the table).
#include <atomic>
#include <cstdint>

#include "engine/board/bitboard.hpp"
#include "engine/endgame/endgame_tt.hpp"
#include "engine/endgame/selectivity.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"

namespace reversi::endgame {

inline constexpr int kShallowEmpties = 7;
inline constexpr int kEtcEmpties = 12;
inline constexpr int kHashEmpties = 8;  // below: fastest-first ordering but no table probes

class SearchWorker {
public:
    // `stop` is the caller's flag; `cutoff` (may be null) is the root's "this search is no longer needed".
    // `pattern` (may be null: simple evaluation only) orders moves at many empties; it must outlive the worker.
    SearchWorker(EndgameTT& tt, const std::atomic<bool>& stop, const std::atomic<bool>* cutoff = nullptr,
                 const eval::PatternEvaluator* pattern = nullptr) noexcept
        : tt_(tt), stop_(stop), cutoff_(cutoff ? cutoff : &stop), pattern_(pattern) {}

    // Exact value within the window: fail-soft, so a result <= alpha is an upper bound and >= beta a
    // lower bound on the true score.
    [[nodiscard]] int search(Bitboard P, Bitboard O, int alpha, int beta);
    // Null-window (alpha, alpha + 1) search.
    [[nodiscard]] int null_window(Bitboard P, Bitboard O, int alpha);

    [[nodiscard]] std::uint64_t nodes() const noexcept { return nodes_; }
    void add_nodes(std::uint64_t n) noexcept { nodes_ += n; }
    [[nodiscard]] bool aborted() const noexcept { return aborted_; }
    [[nodiscard]] EndgameTT& tt() noexcept { return tt_; }
    // 0 = exact (default) .. kMaxSelectivity.
    void set_selectivity(int level) noexcept { selectivity_ = level; }
    // Fewest empties of a probcut node (never below kProbCutMinEmpties).
    void set_probcut_empties(int empties) noexcept {
        probcut_empties_ = empties < kProbCutMinEmpties ? kProbCutMinEmpties : empties;
    }
    [[nodiscard]] int selectivity() const noexcept { return selectivity_; }
    // Number of probcut cuts so far (selective levels only).
    [[nodiscard]] std::uint64_t probcuts() const noexcept { return probcuts_; }

private:
    template <bool Pv>
    int hashed(Bitboard P, Bitboard O, int alpha, int beta, int empties);
    int shallow(Bitboard P, Bitboard O, int alpha, int beta, int empties);
    int dispatch_pv(Bitboard P, Bitboard O, int alpha, int beta, int empties);
    int dispatch_nws(Bitboard P, Bitboard O, int alpha, int empties);
    // Probcut test of a selective pass: true and `score` set (beta or alpha) when the prediction of the
    // shallow pattern search falls outside (alpha, beta) by the level's margin.
    bool probcut(Bitboard P, Bitboard O, int alpha, int beta, int empties, int& score);

    EndgameTT& tt_;
    const std::atomic<bool>& stop_;
    const std::atomic<bool>* cutoff_;
    const eval::PatternEvaluator* pattern_;
    std::uint64_t nodes_ = 0;
    std::uint64_t probcuts_ = 0;
    int selectivity_ = 0;
    int probcut_empties_ = kDefaultProbCutEmpties;
    bool aborted_ = false;
};

// Stability cutoff threshold: the bound is only computed when alpha reaches this value.
[[nodiscard]] int stability_threshold(int empties) noexcept;

}  // namespace reversi::endgame
