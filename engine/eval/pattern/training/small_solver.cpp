#include "engine/eval/pattern/training/small_solver.hpp"

#include <algorithm>
#include <array>

namespace reversi::eval {

namespace {

constexpr int final_score(Bitboard P, Bitboard O) noexcept {
    const int p = popcount(P);
    const int o = popcount(O);
    const int diff = p - o;
    const int empty = 64 - p - o;
    return diff > 0 ? diff + empty : (diff < 0 ? diff - empty : 0);
}

class Solver {
public:
    std::uint64_t nodes = 0;

    int search(Bitboard P, Bitboard O, int alpha, int beta, bool passed) noexcept {
        ++nodes;
        const Bitboard moves = legal_moves(P, O);
        if (!moves) {
            if (passed) return final_score(P, O);
            return -search(O, P, -beta, -alpha, true);
        }
        const int empties = 64 - popcount(P | O);
        if (empties == 1) {
            const int sq = first_square(moves);
            const Bitboard f = flips(P, O, sq);
            return final_score(P ^ f ^ square_bit(sq), O ^ f);
        }
        int best = -65;
        if (empties > 6) {
            std::array<std::pair<int, int>, 64> order{};
            int n = 0;
            for (int sq : squares(moves)) {
                const Bitboard f = flips(P, O, sq);
                const Bitboard np = P ^ f ^ square_bit(sq);
                const Bitboard no = O ^ f;
                int key = popcount(legal_moves(no, np)) * 4;
                if (square_bit(sq) & kCorners) key -= 6;
                order[n++] = {key, sq};
            }
            std::sort(order.begin(), order.begin() + n);
            for (int i = 0; i < n; ++i) {
                const int sq = order[i].second;
                const Bitboard f = flips(P, O, sq);
                const int v = -search(O ^ f, P ^ f ^ square_bit(sq), -beta, -alpha, false);
                if (v > best) {
                    best = v;
                    if (v > alpha) {
                        alpha = v;
                        if (alpha >= beta) break;
                    }
                }
            }
            return best;
        }
        for (int sq : squares(moves)) {
            const Bitboard f = flips(P, O, sq);
            const int v = -search(O ^ f, P ^ f ^ square_bit(sq), -beta, -alpha, false);
            if (v > best) {
                best = v;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta) break;
                }
            }
        }
        return best;
    }
};

}  // namespace

SolveResult solve_small(const Position& pos) noexcept {
    Solver solver;
    const int score = solver.search(pos.player, pos.opponent, -64, 64, false);
    return {score, solver.nodes};
}

}  // namespace reversi::eval
