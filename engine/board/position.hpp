#pragma once
// An Othello position on the 8x8 bitboard: the discs of the side to move and of the other side, the set
// of playable squares (the variant's board), the colour to move and the scoring rule. Positions are
// small values: play() returns a new one (copy-make).
#include <cstdint>

#include "engine/board/bitboard.hpp"
#include "engine/board/moves.hpp"
#include "engine/core/expected.hpp"

namespace reversi {

enum class Color : std::uint8_t { Black, White };
[[nodiscard]] constexpr Color opposite(Color c) noexcept { return c == Color::Black ? Color::White : Color::Black; }

// How a finished game is scored.
enum class ScoreRule : std::uint8_t {
    EmptiesToWinner,  // World Othello Federation rule: empty squares are counted for the winner
    DiscDifference,   // plain disc difference (the diamond boards of the mini-reversi article)
};

struct Position {
    Bitboard player = 0;               // discs of the side to move
    Bitboard opponent = 0;             // discs of the other side
    Bitboard playable = ~Bitboard{0};  // squares of the variant's board
    Color side = Color::Black;         // colour of the side to move
    ScoreRule rule = ScoreRule::EmptiesToWinner;

    [[nodiscard]] constexpr Bitboard moves() const noexcept { return legal_moves(player, opponent) & playable; }
    [[nodiscard]] constexpr Bitboard opponent_moves() const noexcept {
        return legal_moves(opponent, player) & playable;
    }
    [[nodiscard]] constexpr Bitboard empties() const noexcept { return playable & ~(player | opponent); }
    [[nodiscard]] constexpr int empty_count() const noexcept { return popcount(empties()); }
    [[nodiscard]] constexpr bool must_pass() const noexcept { return moves() == 0 && opponent_moves() != 0; }
    [[nodiscard]] constexpr bool is_over() const noexcept { return moves() == 0 && opponent_moves() == 0; }

    [[nodiscard]] constexpr Bitboard black() const noexcept { return side == Color::Black ? player : opponent; }
    [[nodiscard]] constexpr Bitboard white() const noexcept { return side == Color::Black ? opponent : player; }

    // The position after the side to move plays the legal move `square` (unchecked: see apply_move).
    [[nodiscard]] constexpr Position play(int square) const noexcept {
        const Bitboard flipped = flips(player, opponent, square);
        return Position{opponent ^ flipped, player ^ flipped ^ square_bit(square), playable, opposite(side), rule};
    }
    // The position after the side to move passes.
    [[nodiscard]] constexpr Position pass() const noexcept {
        return Position{opponent, player, playable, opposite(side), rule};
    }
    [[nodiscard]] constexpr Position play_move(Move m) const noexcept { return m == kPass ? pass() : play(m); }

    // Final score of a finished game, from the side to move's point of view (disc difference; under
    // EmptiesToWinner the empty squares go to the winner).
    [[nodiscard]] constexpr int final_score() const noexcept {
        const int mine = popcount(player);
        const int theirs = popcount(opponent);
        const int diff = mine - theirs;
        if (rule == ScoreRule::DiscDifference || diff == 0) {
            return diff;
        }
        const int empty = empty_count();
        return diff > 0 ? diff + empty : diff - empty;
    }

    // 64-bit key of (player, opponent) for transposition tables: a multiply-xorshift mix of both words.
    [[nodiscard]] constexpr std::uint64_t hash() const noexcept {
        std::uint64_t h = player * 0x9e3779b97f4a7c15ULL;
        h ^= std::rotl(opponent * 0xc2b2ae3d27d4eb4fULL, 31);
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
        h *= 0xc4ceb9fe1a85ec53ULL;
        h ^= h >> 33;
        return h;
    }

    friend constexpr bool operator==(const Position&, const Position&) = default;
};

// Plays `m` after checking it: a square off the board, an occupied or illegal square, a pass while a
// move exists, or any move in a finished game is an error naming the move; `pos` is never changed.
[[nodiscard]] Expected<Position> apply_move(const Position& pos, Move m);

}  // namespace reversi
