#pragma once
// Book positions are stored once for their 8 symmetric images (the dihedral group D4 of the square board,
// engine/eval/pattern/symmetry.hpp): the canonical image is the one whose (player, opponent) pair is the
// smallest, compared player first. `symmetry` is the g with transform(g, position) == canonical image, so
// a move m of the position is the canonical square map_square(g, m) and back unmap_square(g, s).
#include <compare>
#include <cstddef>
#include <cstdint>

#include "engine/board/position.hpp"
#include "engine/eval/pattern/symmetry.hpp"

namespace reversi::book {

struct BookKey {
    Bitboard player = 0;
    Bitboard opponent = 0;

    friend constexpr auto operator<=>(const BookKey&, const BookKey&) = default;
};

struct BookKeyHash {
    [[nodiscard]] std::size_t operator()(const BookKey& k) const noexcept {
        return static_cast<std::size_t>(Position{k.player, k.opponent}.hash());
    }
};

struct CanonicalPosition {
    BookKey key;
    int symmetry = 0;  // transform(symmetry, position) == key
};

[[nodiscard]] constexpr CanonicalPosition canonical(Bitboard player, Bitboard opponent) noexcept {
    CanonicalPosition best{{player, opponent}, 0};
    for (int g = 1; g < eval::kSymmetryCount; ++g) {
        const BookKey k{eval::transform(g, player), eval::transform(g, opponent)};
        if (k < best.key) best = {k, g};
    }
    return best;
}

[[nodiscard]] constexpr CanonicalPosition canonical(const Position& pos) noexcept {
    return canonical(pos.player, pos.opponent);
}

// Only standard 8x8 games (the full board, empties to the winner) have book positions.
[[nodiscard]] constexpr bool book_variant(const Position& pos) noexcept {
    return pos.playable == ~Bitboard{0} && pos.rule == ScoreRule::EmptiesToWinner;
}

}  // namespace reversi::book
