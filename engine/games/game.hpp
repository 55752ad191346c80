#pragma once
// The small game interface that the search algorithms are generic over. A state is a value type:
//   generate_moves(list)  every legal move; a lone kPass when the side to move must pass; nothing
//                         when the game is over
//   play(move)            the state after the move (copy-make)
//   is_over()             no move for either side
//   final_score()         exact result of a finished game, from the side to move's point of view
//   hash()                64-bit key for transposition tables
//   kScoreBound           |final_score()| and every evaluation stay within this bound
// Othello positions (engine/games/othello_game.hpp), tic-tac-toe and the synthetic uniform tree model it.
#include <array>
#include <concepts>
#include <cstdint>

#include "engine/board/bitboard.hpp"

namespace reversi {

class MoveList {
public:
    static constexpr int kCapacity = 64;

    void push_back(Move m) noexcept { moves_[size_++] = m; }
    // The first n moves, written through operator[] (0 <= n <= kCapacity). A loop of push_back re-reads
    // and re-writes size_ at every move, since a store of a byte-sized Move may alias it; filling the
    // moves with a local count and setting the size once keeps the count in a register.
    void resize(int n) noexcept { size_ = n; }
    void clear() noexcept { size_ = 0; }
    [[nodiscard]] int size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] Move operator[](int i) const noexcept { return moves_[i]; }
    [[nodiscard]] Move& operator[](int i) noexcept { return moves_[i]; }
    [[nodiscard]] Move* begin() noexcept { return moves_.data(); }
    [[nodiscard]] Move* end() noexcept { return moves_.data() + size_; }
    [[nodiscard]] const Move* begin() const noexcept { return moves_.data(); }
    [[nodiscard]] const Move* end() const noexcept { return moves_.data() + size_; }

private:
    std::array<Move, kCapacity> moves_{};
    int size_ = 0;
};

template <class S>
concept GameState = std::copyable<S> && requires(const S s, Move m, MoveList& list) {
    {s.generate_moves(list)};
    { s.play(m) } -> std::same_as<S>;
    { s.is_over() } -> std::convertible_to<bool>;
    { s.final_score() } -> std::convertible_to<int>;
    { s.hash() } -> std::convertible_to<std::uint64_t>;
    { S::kScoreBound } -> std::convertible_to<int>;
};

}  // namespace reversi
