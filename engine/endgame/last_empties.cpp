#include "engine/endgame/last_empties.hpp"

#include <array>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "engine/board/moves.hpp"
#include "engine/endgame/board_ops.hpp"
#include "engine/endgame/stability.hpp"

namespace reversi::endgame {

namespace {

// Quadrant index 0-3 of a square (a1-d4, e1-h4, a5-d8, e5-h8).
constexpr int quadrant(int sq) noexcept { return ((sq >> 5) & 2) | ((sq >> 2) & 1); }

#ifdef __BMI2__
// The four lines through each square (kLinesThrough) as masks, and the square's place among each mask's
// squares.
struct SquareLines {
    std::array<Bitboard, 4> mask{};
    std::array<std::uint8_t, 4> place{};
};
constexpr std::array<SquareLines, 64> kSquareLines = [] {
    std::array<SquareLines, 64> out{};
    for (int sq = 0; sq < 64; ++sq) {
        for (int l = 0; l < 4; ++l) {
            const Bitboard mask = kLinesThrough[sq][l];
            out[sq].mask[l] = mask;
            out[sq].place[l] = static_cast<std::uint8_t>(popcount(mask & (square_bit(sq) - 1)));
        }
    }
    return out;
}();

// kLineFlips[i][b]: the discs flipped along a line of 8 cells by a move on cell i, when b holds the
// mover's cells and every other cell is the opponent's: in each direction, the opponent cells before the
// first of the mover's (none when the line ends first). Cells past a shorter line's end read as 0: a run
// into them never meets the mover's disc, so it flips nothing, as on the board.
constexpr std::array<std::array<std::uint8_t, 256>, 8> kLineFlips = [] {
    std::array<std::array<std::uint8_t, 256>, 8> out{};
    for (int i = 0; i < 8; ++i) {
        for (int b = 0; b < 256; ++b) {
            int n = 0;
            for (const int step : {-1, 1}) {
                int run = 0;
                int k = i + step;
                while (k >= 0 && k < 8 && !(b & (1 << k))) {
                    ++run;
                    k += step;
                }
                if (k >= 0 && k < 8) n += run;
            }
            out[i][b] = static_cast<std::uint8_t>(n);
        }
    }
    return out;
}();
#endif

}  // namespace

int last_flip_count(Bitboard P, int x) noexcept {
#ifdef __BMI2__
    const SquareLines& lines = kSquareLines[static_cast<std::size_t>(x)];
    int n = 0;
    for (int l = 0; l < 4; ++l) {
        const auto bits = static_cast<std::size_t>(_pext_u64(P, lines.mask[l]));
        n += kLineFlips[lines.place[l]][bits];
    }
    return n;
#else
    return popcount(flips(P, ~(P | square_bit(x)), x));
#endif
}

namespace {

// solve_1 and solve_2 inline where solve_2 and solve_3 call them (the calls cost more than the work).
[[gnu::always_inline]] inline int last_1(Bitboard P, int x, std::uint64_t& nodes) noexcept {
    ++nodes;
    const int p = popcount(P);
    if (const int n = last_flip_count(P, x)) return 2 * (p + n) - 62;  // (p + n + 1) - (63 - p - n)
    const Bitboard O = ~(P | square_bit(x));
    if (const int m = last_flip_count(O, x)) return 2 * (p - m) - 64;  // (p - m) - (63 - p + m + 1)
    return final_score(P, 1);
}

[[gnu::always_inline]] inline int last_2(Bitboard P, Bitboard O, int alpha, int beta, int x1, int x2,
                                         std::uint64_t& nodes) noexcept {
    ++nodes;
    int best = -kInfinity;
    if (const Bitboard f = flips_if_adjacent(P, O, x1)) {
        best = -last_1(O ^ f, x2, nodes);
        if (best >= beta) return best;
    }
    if (const Bitboard f = flips_if_adjacent(P, O, x2)) {
        const int score = -last_1(O ^ f, x1, nodes);
        return score > best ? score : best;
    }
    if (best != -kInfinity) return best;
    // P passes: the opponent moves (P's score is minimised).
    ++nodes;
    best = kInfinity;
    if (const Bitboard f = flips_if_adjacent(O, P, x1)) {
        best = last_1(P ^ f, x2, nodes);
        if (best <= alpha) return best;
    }
    if (const Bitboard f = flips_if_adjacent(O, P, x2)) {
        const int score = last_1(P ^ f, x1, nodes);
        return score < best ? score : best;
    }
    if (best != kInfinity) return best;
    return final_score(P, 2);
}

}  // namespace

int solve_1(Bitboard P, int x, std::uint64_t& nodes) noexcept { return last_1(P, x, nodes); }

int solve_2(Bitboard P, Bitboard O, int alpha, int beta, int x1, int x2, std::uint64_t& nodes) noexcept {
    return last_2(P, O, alpha, beta, x1, x2, nodes);
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
            const int score = -last_2(O ^ f, P ^ f ^ square_bit(o[0]), -beta, -a, o[1], o[2], nodes);
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
            const int score = last_2(P ^ f, O ^ f ^ square_bit(o[0]), alpha, b, o[1], o[2], nodes);
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
    if (int upper = 0; stability_cutoff(P, O, alpha, upper)) {
        ++nodes;
        return upper;
    }
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
