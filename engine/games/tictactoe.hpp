#pragma once
// Tic-tac-toe behind the game interface: cells 0..8 row by row, X moves first, the game stops at a
// line of three or a full board. Score +1 win, 0 draw, -1 loss for the side to move.
#include <array>
#include <cstdint>

#include "engine/games/game.hpp"

namespace reversi {

struct TicTacToe {
    static constexpr int kScoreBound = 1;
    static constexpr std::array<std::uint16_t, 8> kLines = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};

    std::uint16_t player = 0;    // cells of the side to move
    std::uint16_t opponent = 0;  // cells of the side that just moved
    bool x_to_move = true;

    [[nodiscard]] static constexpr bool has_line(std::uint16_t cells) noexcept {
        for (auto line : kLines) {
            if ((cells & line) == line) return true;
        }
        return false;
    }
    [[nodiscard]] constexpr bool is_over() const noexcept {
        return has_line(opponent) || has_line(player) || (player | opponent) == 0777;
    }
    [[nodiscard]] constexpr int final_score() const noexcept {
        if (has_line(opponent)) return -1;
        if (has_line(player)) return 1;
        return 0;
    }
    void generate_moves(MoveList& list) const noexcept {
        list.clear();
        if (is_over()) return;
        for (int cell = 0; cell < 9; ++cell) {
            if (!((player | opponent) & (1u << cell))) list.push_back(static_cast<Move>(cell));
        }
    }
    [[nodiscard]] constexpr TicTacToe play(Move cell) const noexcept {
        return TicTacToe{opponent, static_cast<std::uint16_t>(player | (1u << cell)), !x_to_move};
    }
    [[nodiscard]] constexpr std::uint64_t hash() const noexcept {
        return (std::uint64_t{player} | std::uint64_t{opponent} << 9) * 0x9e3779b97f4a7c15ULL;
    }
    friend constexpr bool operator==(const TicTacToe&, const TicTacToe&) = default;
};
static_assert(GameState<TicTacToe>);

}  // namespace reversi
