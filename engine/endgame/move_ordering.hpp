#pragma once
// Move lists and ordering of the exact solver above the last empties:
//   - hash moves first (best, then second best from the transposition table);
//   - fastest-first: fewer opponent replies (corner replies count double) and fewer empty squares next
//     to our discs (the opponent's potential mobility) is better, with bonuses for
//     taking a corner and for the mover's discs made stable on the edges, and a parity bonus (odd
//     quadrants first) at low empties;
//   - with many empties, a shallow alpha-beta search adds its value (one disc of the pattern search counts
//     a quarter of one opponent reply; mobility stays the main term): on the trained pattern evaluation
//     (eval::PatternEvaluator::evaluate_units, 1/32 disc) from kPatternOrderEmpties on when the solver
//     has one, else on a simple mobility/corner evaluation (simple_evaluation below).
#include <array>
#include <cstdint>
#include <utility>

#include "engine/board/bitboard.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/eval/pattern/features.hpp"
#include "engine/eval/pattern/instance_indices.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"

namespace reversi::endgame {

// kUnknownMoves in EndgameMove::replies: not computed (no position has every square as a legal move).
inline constexpr Bitboard kUnknownMoves = ~Bitboard{0};

struct EndgameMove {
    Bitboard flipped;
    Bitboard replies;  // the opponent's legal moves after this one, when the ordering computed them
    int square;
    int score;
};

// The solver's moves with their flips and ordering scores (the midgame's is reversi::MoveList, engine/games/).
// The entries from `size` on are left unwritten (list_moves writes every field of the first `size`): a
// list made at every hashed node would otherwise zero its 1 KiB first. One entry per square: a board set
// up by hand can give the side to move more than 32 legal moves (reachable games up to 33).
struct EndgameMoveList {
    static constexpr int kCapacity = 64;
    std::array<EndgameMove, kCapacity> moves;
    int size = 0;

    // Moves the best-scored move from [i, size) to position i (selection sort step).
    void pick_best(int i) noexcept {
        int best = i;
        for (int j = i + 1; j < size; ++j) {
            if (moves[static_cast<std::size_t>(j)].score > moves[static_cast<std::size_t>(best)].score) best = j;
        }
        if (best != i) std::swap(moves[static_cast<std::size_t>(i)], moves[static_cast<std::size_t>(best)]);
    }

    // Swaps `move`, when listed, into position 0 (exactly where pick_best(0) puts the top-scored move):
    // returns 1 when it is listed, 0 when not.
    int bring_to_front(Move move) noexcept;
};

// A quick static evaluation in discs for the side to move P: mobility, corners, corner-adjacent squares.
[[nodiscard]] int simple_evaluation(Bitboard P, Bitboard O) noexcept;

// Fail-soft alpha-beta on simple_evaluation to `depth` plies (passes handled, finished games scored).
[[nodiscard]] int evaluation_search(Bitboard P, Bitboard O, int depth, int alpha, int beta,
                                    std::uint64_t& nodes) noexcept;

// Fail-soft alpha-beta on the pattern evaluation, in 1/32 disc (finished games: 32 x the final score).
[[nodiscard]] int pattern_search(const eval::PatternEvaluator& pattern, Bitboard P, Bitboard O, int depth, int alpha,
                                 int beta, std::uint64_t& nodes) noexcept;

// The same search two ways: Indexed, with the instances' indices of (P, O) given (indices ==
// eval::instance_indices of the position) and kept move by move below, so that no leaf extracts them from
// the discs; not Indexed, `indices` unread and each leaf extracting its own. Where the extraction runs
// on AVX-512's digit planes it costs about what keeping the indices does, which also copies them at
// every node (FFO #40-#47: no faster on the Intel AVX-512 VM, within its noise); with BMI2's pext,
// keeping them saved 8.6 % of the solver's instructions (docs/endgame.md). pattern_search and the
// solver's ordering use the indexed search where the extraction is not the digit planes'.
inline constexpr bool kIndexedOrdering = !eval::kDigitPlaneExtraction;
template <bool Indexed>
[[nodiscard]] int pattern_search_from(const eval::PatternEvaluator& pattern, Bitboard P, Bitboard O,
                                      const eval::InstanceIndices& indices, int depth, int alpha, int beta,
                                      std::uint64_t& nodes) noexcept;

// From this many empties on (in the position being ordered), the shallow ordering search uses the
// pattern evaluation when one is given. Tuned on FFO #40-#47 (docs/endgame.md).
inline constexpr int kPatternOrderEmpties = 12;

// P's move on `sq` as list_moves lists it: its flips, unscored (score 0), the replies not computed.
[[nodiscard]] inline EndgameMove listed_move(Bitboard P, Bitboard O, int sq) noexcept {
    return EndgameMove{flips_from_rays(P, O, sq), kUnknownMoves, sq, 0};
}

// Lists the legal moves `moves` of P with their flips, unscored (score 0), in square order.
void list_moves(EndgameMoveList& list, Bitboard P, Bitboard O, Bitboard moves) noexcept;

// The ordering's pattern searches need a move's exact value only down to this many discs below the
// node's alpha (Edax's SORT_ALPHA_DELTA): FFO #40-#47 -1.2 %, #48-#52 -2.1 % and the first 40 of
// hard-25 -1.4 % nodes with 8, flat from 2 to 16 (docs/endgame.md, "The ordering searches bounded").
inline constexpr int kOrderAlphaDelta = 8;

// Scores the listed moves [from, size) as score_moves does. The solver lists the moves, searches the
// table's move first and scores the others only when it did not cut: most null-window nodes with a
// table move cut there and never pay for the ordering searches. `alpha`: the node's alpha when the
// moves are scored (the default: none, every ordering search exact).
// Returns how many children it scored without entering them (below 12 empties, by mobility and the
// other fast terms alone): not nodes here, as in Egaroucid, where Edax 4.6 counts each as a node
// (COUNT_NODES 7: `movelist_evaluate_fast`); from 12 empties each child is entered by its ordering search
// and counted in `nodes`, and 0 is returned.
int score_listed_moves(EndgameMoveList& list, int from, Bitboard P, Bitboard O, int empties, Move hash_move,
                       Move second_move, std::uint64_t& nodes, const eval::PatternEvaluator* pattern,
                       int alpha = -kScoreMax - 1) noexcept;

// Builds the list of legal moves `moves` of P and scores them for the search of a position with
// `empties` empty squares. hash_move / second_move get the top scores when legal. Returns what
// score_listed_moves returns.
int score_moves(EndgameMoveList& list, Bitboard P, Bitboard O, Bitboard moves, int empties, Move hash_move,
                Move second_move, std::uint64_t& nodes, const eval::PatternEvaluator* pattern = nullptr) noexcept;

}  // namespace reversi::endgame
