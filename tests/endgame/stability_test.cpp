// Stable discs: no sequence of moves may ever flip a disc that stable_discs() reports.
#include <doctest/doctest.h>

#include <array>
#include <bit>
#include <memory>
#include <random>
#include <utility>

#include "engine/board/random_move.hpp"
#include "engine/endgame/stability.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"

using namespace reversi;

TEST_CASE("stable discs never flip in 200 random continuations of 600 positions") {
    std::mt19937_64 rng(31);
    long long stable_seen = 0;
    for (int empties : {8, 14, 20, 26, 32, 40}) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, 100, 500 + empties)) {
            const Bitboard mine = endgame::stable_discs(pos.player, pos.opponent);
            const Bitboard theirs = endgame::stable_discs(pos.opponent, pos.player);
            REQUIRE((mine & ~pos.player) == 0);
            REQUIRE((theirs & ~pos.opponent) == 0);
            stable_seen += popcount(mine | theirs);
            for (int game = 0; game < 200; ++game) {
                Position p = pos;
                while (!p.is_over()) {
                    p = play_random_move(p, rng);  // a pass changes no disc: checked as well
                    const Bitboard black = p.black();
                    const Bitboard white = p.white();
                    const Bitboard orig_black = pos.black();
                    // Stable discs keep their colour.
                    const Bitboard stable = mine | theirs;
                    REQUIRE((stable & orig_black & ~black) == 0);
                    REQUIRE((stable & ~orig_black & ~white) == 0);
                }
            }
        }
    }
    CHECK(stable_seen > 1000);
}

TEST_CASE("stability on crafted boards") {
    // A full board: every disc is stable.
    const Bitboard half = 0x00000000ffffffffULL;
    CHECK(endgame::stable_discs(half, ~half) == half);
    // A corner and the edge run from it are stable; a lone X-square is not.
    const Bitboard corner_run = 0x7ULL;  // a1 b1 c1
    const Bitboard x_square = square_bit(9);
    CHECK(endgame::stable_discs(corner_run | x_square, square_bit(27)) == corner_run);
    // Edge table: a1..h1 full, alternating colours -> all stable.
    CHECK(endgame::edge_stable(0x55, 0xaa) == 0x55);
    // A lone disc in the middle of an empty edge is not stable.
    CHECK(endgame::edge_stable(0x08, 0) == 0);
}

namespace {

// The edge table's definition, computed the other way round (memoised recursion from the line itself, as
// the table was built before it was filled fullest lines first): the discs of both colours that no
// move on the line, by either side, changes, now or after any sequence of moves.
class EdgeReference {
public:
    unsigned stable(unsigned a, unsigned b) {
        const unsigned index = a << 8 | b;
        if (done_[index]) return table_[index];
        unsigned result = a | b;
        for (int sq = 0; sq < 8; ++sq) {
            if ((a | b) >> sq & 1u) continue;
            for (const bool first_side : {true, false}) {
                unsigned na = a;
                unsigned nb = b;
                if (first_side) {
                    play(na, nb, sq);
                } else {
                    play(nb, na, sq);
                }
                result &= ~((na ^ a) | (nb ^ b)) & stable(na, nb);
            }
        }
        done_[index] = true;
        table_[index] = result;
        return result;
    }

private:
    // A move on `square` for `mover`, flipping along the line only (through the other directions a
    // move that flips nothing here can be legal too).
    static void play(unsigned& mover, unsigned& other, int square) {
        unsigned flipped = 0;
        for (const int step : {1, -1}) {
            unsigned run = 0;
            int s = square + step;
            for (; s >= 0 && s < 8 && (other >> s & 1u); s += step) run |= 1u << s;
            if (s >= 0 && s < 8 && (mover >> s & 1u)) flipped |= run;
        }
        mover |= flipped | 1u << square;
        other &= ~flipped;
    }
    std::array<unsigned, 1 << 16> table_{};
    std::array<bool, 1 << 16> done_{};
};

}  // namespace

TEST_CASE("the edge table equals its definition on all 6,561 lines") {
    auto reference = std::make_unique<EdgeReference>();
    int lines = 0;
    int stable_seen = 0;
    for (unsigned a = 0; a < 256; ++a) {
        for (unsigned b = 0; b < 256; ++b) {
            if (a & b) continue;
            const unsigned expected = reference->stable(a, b);
            REQUIRE(endgame::edge_stable(a, b) == (expected & a));
            REQUIRE(endgame::edge_stable(b, a) == (expected & b));
            ++lines;
            stable_seen += std::popcount(expected);
        }
    }
    CHECK(lines == 6561);
    CHECK(stable_seen > 10000);
}

TEST_CASE("edge_stability counts the edge table's stable discs of the four edges") {
    // The reference: edge_stable on each edge line, gathered square by square.
    const auto line = [](Bitboard b, int first, int step) {
        unsigned out = 0;
        for (int i = 0; i < 8; ++i) out |= static_cast<unsigned>(b >> (first + i * step) & 1u) << i;
        return out;
    };
    std::mt19937_64 rng(31);
    for (int n = 0; n < 20000; ++n) {
        const Bitboard occupied = rng() | rng();  // mostly full boards: many stable edges
        const Bitboard owner = occupied & rng();
        const Bitboard other = occupied & ~owner;
        int expected = 0;
        for (const auto& [first, step] : {std::pair{0, 1}, std::pair{56, 1}, std::pair{0, 8}, std::pair{7, 8}}) {
            expected += std::popcount(endgame::edge_stable(line(owner, first, step), line(other, first, step)));
        }
        REQUIRE(endgame::edge_stability(owner, other) == expected);
    }
}

namespace {

// The full lines square by square: a square is on a full line when no empty square shares that line.
endgame::FullLines full_lines_reference(Bitboard occupied) {
    endgame::FullLines f;
    for (int sq = 0; sq < 64; ++sq) {
        const int row = sq >> 3;
        const int col = sq & 7;
        std::array<bool, 4> full{true, true, true, true};  // row, column, diagonal, anti-diagonal
        for (int other = 0; other < 64; ++other) {
            if (occupied >> other & 1u) continue;
            const int r = other >> 3;
            const int c = other & 7;
            full[0] = full[0] && r != row;
            full[1] = full[1] && c != col;
            full[2] = full[2] && c - r != col - row;
            full[3] = full[3] && c + r != col + row;
        }
        const Bitboard bit = square_bit(sq);
        f.horizontal |= full[0] ? bit : 0;
        f.vertical |= full[1] ? bit : 0;
        f.diagonal |= full[2] ? bit : 0;
        f.anti_diagonal |= full[3] ? bit : 0;
    }
    return f;
}

}  // namespace

TEST_CASE("full_lines equals the square-by-square reference on 20,000 random boards") {
    std::mt19937_64 rng(77);
    int full_diagonal_squares = 0;
    for (int i = 0; i < 20000; ++i) {
        // From nearly empty to nearly full: the density varies with i.
        Bitboard occupied = rng();
        for (int k = 0; k < i % 4; ++k) occupied |= rng();
        if (i % 7 == 0) occupied = ~(square_bit(static_cast<int>(rng() % 64)));
        if (i % 11 == 0) occupied = ~Bitboard{0};
        const endgame::FullLines fast = endgame::full_lines(occupied);
        REQUIRE(fast == full_lines_reference(occupied));
        full_diagonal_squares += popcount(fast.diagonal | fast.anti_diagonal);
    }
    CHECK(full_diagonal_squares > 10000);
}

TEST_CASE("full_lines with few empty squares (the lines through each) equals the reference") {
    std::mt19937_64 rng(78);
    for (int empties = 0; empties <= endgame::kFewEmpties + 2; ++empties) {
        for (int i = 0; i < 2000; ++i) {
            Bitboard occupied = ~Bitboard{0};
            while (popcount(~occupied) < empties) occupied &= ~square_bit(static_cast<int>(rng() % 64));
            REQUIRE(endgame::full_lines(occupied) == full_lines_reference(occupied));
        }
    }
}

TEST_CASE("stability_cutoff: cuts exactly when the stable-disc bound reaches alpha, and the bound holds") {
    std::mt19937 rng(19);
    int cuts = 0;
    for (int empties = 4; empties <= 10; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, 150, 700 + empties)) {
            const int truth = plain_solve(pos);
            const int bound = 64 - 2 * popcount(endgame::stable_discs(pos.opponent, pos.player));
            REQUIRE(truth <= bound);
            for (int k = 0; k < 8; ++k) {
                const int alpha = static_cast<int>(rng() % 129) - 64;
                int upper = 99;
                const bool cut = endgame::stability_cutoff(pos.player, pos.opponent, alpha, upper);
                CAPTURE(alpha);
                REQUIRE(cut == (bound <= alpha));  // the disc-count test never drops a cut
                if (cut) {
                    REQUIRE(upper == bound);
                    ++cuts;
                }
            }
        }
    }
    CHECK(cuts > 500);
}
