#pragma once
// The opening book in memory: positions (canonical under the 8 symmetries, book_key.hpp) each with the
// values of its legal moves, in discs from the side to move (final-score units, -64..64).
//
// A book node stores every legal move of its position with a value. A move whose resulting position is
// itself in the book ("explored") takes its value from there: -value(child), or +value(child) when the
// opponent must pass and the position after the pass is the child. The other moves keep the value a
// search gave them (a leaf). The value of a node is the best of its moves' values: negamax() propagates
// the leaves' values up the book.
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/book/book_key.hpp"

namespace reversi::book {

inline constexpr int kMaxBookValue = 64;
// The most legal moves a book position may have (the file format's limit, book_file.hpp). Positions with
// more (the rare reachable one with 33; boards set up by hand, such as the learn test's with 34) are not
// stored: set_moves refuses them, with positions of fewer than 4 discs.
inline constexpr std::size_t kMaxBookMoves = 32;

struct BookMove {
    Move square = kNoMove;  // 0..63
    std::int8_t value = 0;  // discs, from the side to move of the node

    friend constexpr bool operator==(const BookMove&, const BookMove&) = default;
};

struct BookNode {
    std::vector<BookMove> moves;  // canonical squares, every legal move once
};

// Where a move leads as far as the book is concerned: the position the book would hold for it (the
// opponent's position, or the mover's again after the opponent's forced pass) and the sign that turns
// that position's value into the move's value; a move that ends the game has its exact value instead.
struct BookChild {
    Position position;
    int sign = -1;
    std::optional<int> final_value;  // the game is over: the move's exact value
};
[[nodiscard]] BookChild book_child(const Position& pos, Move m) noexcept;

class Book {
public:
    using Map = std::unordered_map<BookKey, BookNode, BookKeyHash>;

    [[nodiscard]] std::size_t size() const noexcept { return nodes_.size(); }
    [[nodiscard]] bool empty() const noexcept { return nodes_.empty(); }
    [[nodiscard]] const Map& nodes() const noexcept { return nodes_; }

    [[nodiscard]] bool contains(const Position& pos) const;
    [[nodiscard]] const BookNode* find(const BookKey& key) const;
    // The moves of `pos` in its own frame, best first (ties by square); empty when `pos` is not in the book
    // (or is not a standard 8x8 position).
    [[nodiscard]] std::vector<BookMove> moves(const Position& pos) const;
    // The value of `pos` (the best of its moves); nullopt when it is not in the book.
    [[nodiscard]] std::optional<int> value(const Position& pos) const;

    // Whether `pos` can be stored: at least 4 discs and 1 to kMaxBookMoves legal moves (what the file format
    // holds; a position set up by hand may have neither).
    [[nodiscard]] static bool storable(const Position& pos) noexcept;
    // Stores the moves of `pos` (squares in pos's frame: every legal move once), replacing what was there;
    // false (and nothing stored) when `pos` is not storable or `moves` are not its legal moves, each once.
    [[nodiscard]] bool set_moves(const Position& pos, const std::vector<BookMove>& moves);
    // Stores a node under its canonical key as it is (the file reader; the caller has checked it).
    void insert(const BookKey& key, BookNode node);

    // Recomputes the value of every explored move from its child, leaves first: afterwards each node's
    // value is the negamax of the leaf values below it. Returns how many move values changed.
    std::size_t negamax();

private:
    Map nodes_;
};

// The move to play among `moves` (best first, as Book::moves gives them): with randomness 0 the first;
// otherwise one of those within `randomness` discs of the best, picked by `random` (uniformly when it is
// uniform). Requires a non-empty list.
[[nodiscard]] BookMove choose_book_move(const std::vector<BookMove>& moves, int randomness,
                                        std::uint64_t random) noexcept;

}  // namespace reversi::book
