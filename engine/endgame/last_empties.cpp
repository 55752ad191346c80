#include "engine/endgame/last_empties.hpp"

#include "engine/board/moves.hpp"
#include "engine/endgame/board_ops.hpp"

namespace reversi::endgame {

namespace {

constexpr int kInfinity = kScoreMax + 1;

// Quadrant index 0-3 of a square (a1-d4, e1-h4, a5-d8, e5-h8).
constexpr int quadrant(int sq) noexcept { return ((sq >> 5) & 2) | ((sq >> 2) & 1); }

}  // namespace

int solve_1(Bitboard P, int x, std::uint64_t& nodes) noexcept {
    ++nodes;
    const Bitboard O = ~(P | square_bit(x));
    const int p = popcount(P);
    const Bitboard f = flips_if_adjacent(P, O, x);
    if (f) return 2 * (p + popcount(f)) - 62;  // (p + n + 1) - (63 - p - n)
    const Bitboard g = flips_if_adjacent(O, P, x);
    if (g) return 2 * (p - popcount(g)) - 64;  // (p - m) - (63 - p + m + 1)
    return final_score(P, 1);
}

int solve_2(Bitboard P, Bitboard O, int alpha, int beta, int x1, int x2, std::uint64_t& nodes) noexcept {
    ++nodes;
    int best = -kInfinity;
    if (const Bitboard f = flips_if_adjacent(P, O, x1)) {
        best = -solve_1(O ^ f, x2, nodes);
        if (best >= beta) return best;
    }
    if (const Bitboard f = flips_if_adjacent(P, O, x2)) {
        const int score = -solve_1(O ^ f, x1, nodes);
        return score > best ? score : best;
    }
    if (best != -kInfinity) return best;
    // P passes: the opponent moves (P's score is minimised).
    ++nodes;
    best = kInfinity;
    if (const Bitboard f = flips_if_adjacent(O, P, x1)) {
        best = solve_1(P ^ f, x2, nodes);
        if (best <= alpha) return best;
    }
    if (const Bitboard f = flips_if_adjacent(O, P, x2)) {
        const int score = solve_1(P ^ f, x1, nodes);
        return score < best ? score : best;
    }
    if (best != kInfinity) return best;
    return final_score(P, 2);
}

int solve_3(Bitboard P, Bitboard O, int alpha, int beta, int x1, int x2, int x3, std::uint64_t& nodes) noexcept {
    // Parity: a square alone in its quadrant first.
    if (quadrant(x1) == quadrant(x2)) {
        const int t = x1;
        x1 = x3;
        x3 = t;
    } else if (quadrant(x1) == quadrant(x3)) {
        const int t = x1;
        x1 = x2;
        x2 = t;
    }
    ++nodes;
    const int order[3][3] = {{x1, x2, x3}, {x2, x1, x3}, {x3, x1, x2}};
    int best = -kInfinity;
    for (const auto& o : order) {
        if (const Bitboard f = flips_if_adjacent(P, O, o[0])) {
            const int a = alpha > best ? alpha : best;
            const int score = -solve_2(O ^ f, P ^ f ^ square_bit(o[0]), -beta, -a, o[1], o[2], nodes);
            if (score > best) {
                best = score;
                if (best >= beta) return best;
            }
        }
    }
    if (best != -kInfinity) return best;
    ++nodes;
    best = kInfinity;
    for (const auto& o : order) {
        if (const Bitboard f = flips_if_adjacent(O, P, o[0])) {
            const int b = beta < best ? beta : best;
            const int score = solve_2(P ^ f, O ^ f ^ square_bit(o[0]), alpha, b, o[1], o[2], nodes);
            if (score < best) {
                best = score;
                if (best <= alpha) return best;
            }
        }
    }
    if (best != kInfinity) return best;
    return final_score(P, 3);
}

int solve_4(Bitboard P, Bitboard O, int alpha, int beta, std::uint64_t& nodes) noexcept {
    const Bitboard empties = ~(P | O);
    const Bitboard odd = odd_quadrants(empties);
    int sq[4];
    int n = 0;
    for (int s : squares(empties & odd)) sq[n++] = s;
    for (int s : squares(empties & ~odd)) sq[n++] = s;
    ++nodes;
    const int order[4][4] = {{sq[0], sq[1], sq[2], sq[3]},
                             {sq[1], sq[0], sq[2], sq[3]},
                             {sq[2], sq[0], sq[1], sq[3]},
                             {sq[3], sq[0], sq[1], sq[2]}};
    int best = -kInfinity;
    for (const auto& o : order) {
        if (const Bitboard f = flips_if_adjacent(P, O, o[0])) {
            const int a = alpha > best ? alpha : best;
            const int score = -solve_3(O ^ f, P ^ f ^ square_bit(o[0]), -beta, -a, o[1], o[2], o[3], nodes);
            if (score > best) {
                best = score;
                if (best >= beta) return best;
            }
        }
    }
    if (best != -kInfinity) return best;
    ++nodes;
    best = kInfinity;
    for (const auto& o : order) {
        if (const Bitboard f = flips_if_adjacent(O, P, o[0])) {
            const int b = beta < best ? beta : best;
            const int score = solve_3(P ^ f, O ^ f ^ square_bit(o[0]), alpha, b, o[1], o[2], o[3], nodes);
            if (score < best) {
                best = score;
                if (best <= alpha) return best;
            }
        }
    }
    if (best != kInfinity) return best;
    return final_score(P, 4);
}

int solve_small(Bitboard P, Bitboard O, int alpha, int beta, std::uint64_t& nodes) noexcept {
    const Bitboard empties = ~(P | O);
    switch (popcount(empties)) {
        case 0:
            ++nodes;
            return final_score(P, 0);
        case 1:
            return solve_1(P, first_square(empties), nodes);
        case 2: {
            const int x1 = first_square(empties);
            return solve_2(P, O, alpha, beta, x1, first_square(empties & (empties - 1)), nodes);
        }
        case 3: {
            const int x1 = first_square(empties);
            const Bitboard rest = empties & (empties - 1);
            const int x2 = first_square(rest);
            return solve_3(P, O, alpha, beta, x1, x2, first_square(rest & (rest - 1)), nodes);
        }
        default:
            return solve_4(P, O, alpha, beta, nodes);
    }
}

}  // namespace reversi::endgame
