#pragma once
// Othello positions behind the generic game interface. Moves are generated in ascending square order
// (a1, b1, ..., h8); move ordering is the search's business.
#include "engine/board/position.hpp"
#include "engine/eval/pattern/instance_indices.hpp"
#include "engine/games/game.hpp"

namespace reversi {

struct OthelloState {
    static constexpr int kScoreBound = 64;

    Position pos;
    // The pattern instances' indices of pos, kept move by move for the trained evaluation when `indexed`
    // (asked for at the root, 8x8 only; all zero otherwise: the searches on the heuristic evaluation and
    // the small boards do not pay for them).
    eval::InstanceIndices indices;
    bool indexed = false;

    OthelloState() = default;
    explicit OthelloState(const Position& p, bool with_indices = false) noexcept
        : pos(p), indexed(with_indices && p.playable == ~Bitboard{0}) {
        if (indexed) indices = eval::instance_indices(p);
    }

    void generate_moves(MoveList& list) const noexcept {
        list.clear();
        const Bitboard moves = pos.moves();
        if (moves) {
            int n = 0;
            for (int sq : squares(moves)) list[n++] = static_cast<Move>(sq);
            list.resize(n);
        } else if (pos.opponent_moves()) {
            list.push_back(kPass);
        }
    }
    [[nodiscard]] OthelloState play(Move m) const noexcept {
        if (!indexed) return OthelloState(pos.play_move(m));
        return OthelloState(*this, m == kPass ? pos.pass() : pos.play(m), m);
    }
    [[nodiscard]] bool is_over() const noexcept { return pos.is_over(); }
    [[nodiscard]] int final_score() const noexcept { return pos.final_score(); }
    [[nodiscard]] std::uint64_t hash() const noexcept { return pos.hash(); }
    friend bool operator==(const OthelloState&, const OthelloState&) = default;

private:
    // The child `child` of the indexed state `parent` after move m: its indices are computed in place
    // (no copy of the 256 bytes through a temporary).
    OthelloState(const OthelloState& parent, const Position& child, Move m) noexcept
        : pos(child),
          indices(m == kPass ? eval::after_pass(parent.indices)
                             : eval::after_move(parent.indices, m, parent.pos.opponent ^ child.player)),
          indexed(true) {}
};
static_assert(GameState<OthelloState>);

}  // namespace reversi
