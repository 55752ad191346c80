#pragma once
// 64-bit board sets. Square index = row * 8 + column, a1 = 0 (top-left), b1 = 1, ..., h8 = 63.
#include <bit>
#include <cstdint>

namespace reversi {

using Bitboard = std::uint64_t;

// A move is a square index 0..63, or kPass, or kNoMove ("no move known"). The same small integer
// type is used by every game behind the search interface (tic-tac-toe cells, synthetic-tree children).
using Move = std::uint8_t;
inline constexpr Move kPass = 64;
inline constexpr Move kNoMove = 65;

[[nodiscard]] constexpr Bitboard square_bit(int square) noexcept { return Bitboard{1} << square; }
[[nodiscard]] constexpr int popcount(Bitboard b) noexcept { return std::popcount(b); }
[[nodiscard]] constexpr int first_square(Bitboard b) noexcept { return std::countr_zero(b); }
[[nodiscard]] constexpr int row_of(int square) noexcept { return square >> 3; }
[[nodiscard]] constexpr int column_of(int square) noexcept { return square & 7; }
[[nodiscard]] constexpr int make_square(int column, int row) noexcept { return row * 8 + column; }

// Iterate the set squares of a bitboard: for (int sq : squares(b)) ...
class SquareRange {
public:
    class Iterator {
    public:
        constexpr explicit Iterator(Bitboard b) noexcept : b_(b) {}
        constexpr int operator*() const noexcept { return std::countr_zero(b_); }
        constexpr Iterator& operator++() noexcept {
            b_ &= b_ - 1;
            return *this;
        }
        constexpr bool operator!=(const Iterator& other) const noexcept { return b_ != other.b_; }

    private:
        Bitboard b_;
    };
    constexpr explicit SquareRange(Bitboard b) noexcept : b_(b) {}
    constexpr Iterator begin() const noexcept { return Iterator(b_); }
    constexpr Iterator end() const noexcept { return Iterator(0); }

private:
    Bitboard b_;
};
[[nodiscard]] constexpr SquareRange squares(Bitboard b) noexcept { return SquareRange(b); }

inline constexpr Bitboard kNotColumnA = 0xfefefefefefefefeULL;
inline constexpr Bitboard kNotColumnH = 0x7f7f7f7f7f7f7f7fULL;
inline constexpr Bitboard kCorners = 0x8100000000000081ULL;

}  // namespace reversi
