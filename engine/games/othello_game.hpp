#pragma once
// Othello positions behind the generic game interface. Moves are generated in ascending square order
// (a1, b1, ..., h8); move ordering is the search's business.
#include "engine/board/position.hpp"
#include "engine/games/game.hpp"

namespace reversi {

struct OthelloState {
    static constexpr int kScoreBound = 64;

    Position pos;

    void generate_moves(MoveList& list) const noexcept {
        list.clear();
        const Bitboard moves = pos.moves();
        if (moves) {
            for (int sq : squares(moves)) list.push_back(static_cast<Move>(sq));
        } else if (pos.opponent_moves()) {
            list.push_back(kPass);
        }
    }
    [[nodiscard]] OthelloState play(Move m) const noexcept { return OthelloState{pos.play_move(m)}; }
    [[nodiscard]] bool is_over() const noexcept { return pos.is_over(); }
    [[nodiscard]] int final_score() const noexcept { return pos.final_score(); }
    [[nodiscard]] std::uint64_t hash() const noexcept { return pos.hash(); }
    friend bool operator==(const OthelloState&, const OthelloState&) = default;
};
static_assert(GameState<OthelloState>);

}  // namespace reversi
