#pragma once
// Edax's binary opening book ("book.dat" of Edax 4.x, the format its `book load` / `book save` read and
// write), for users who bring their books or take ours to Edax. Written from the layout below, which
// is what Edax 4.6 writes on a little-endian machine (its structs as the compiler lays them out).
//
// Layout, all integers little-endian:
//   offset size  field
//        0    4  0x45444158 ("XADE" on disk: Edax's EDAX constant)
//        4    4  0x424f4f4b ("KOOB": BOOK)
//        8    1  version (4)
//        9    1  release (6 for Edax 4.6; any release of version 4 is read)
//       10    8  date: year i16, month, day, hour, minute, second (i8 each), 1 byte of padding
//       18   20  options, 5 x i32: level, n_empties, midgame_error, endcut_error, verbosity
//       38    4  position count (i32)
//       42     positions, each:
//                 0  8  player   discs of the side to move, Edax's unique image: the smallest (player,
//                                opponent) of the 8 symmetric images, player compared first (the same
//                                image as this project's canonical key, book_key.hpp)
//                 8  8  opponent
//                16 16  wins, draws, losses, lines (u32 each: game statistics)
//                32  6  value, lower, upper (i16 each: the negamaxed value and its bounds, discs)
//                38  1  link count n
//                39  1  level (the search level its leaf values come from)
//                40 2n  links, each (score i8, move u8): the moves whose position is in the book
//             40+2n  2  leaf (score i8, move u8): the best move not linked, move 65 (none) with score
//                       -127 when every move is linked
// Squares are numbered as here (a1 = 0, b1 = 1, ..., h8 = 63), 64 = pass, 65 = no move.
//
// What maps to what. Edax stores the explored moves (links) and one unexplored move (the leaf); this book
// stores a value for every legal move. Export: a move whose position is a book node is a link, the
// best of the other moves is the leaf; values are the book's, statistics zero, bounds equal to the
// value. (A move after which the opponent must pass leads here to the mover's position after the pass;
// Edax would look for the position with the passing side to move, which this book does not hold, so
// such a move is never a link.) Import (edax_import.hpp) takes the positions and re-values their moves
// with the engine's own search.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/book/book.hpp"
#include "engine/core/expected.hpp"

namespace reversi::book {

inline constexpr std::uint32_t kEdaxMagic = 0x45444158;
inline constexpr std::uint32_t kEdaxBookMagic = 0x424f4f4b;
inline constexpr std::uint8_t kEdaxVersion = 4;
inline constexpr std::uint8_t kEdaxRelease = 6;
inline constexpr std::size_t kEdaxHeaderSize = 42;
inline constexpr std::size_t kEdaxPositionSize = 40;  // before its links and leaf
inline constexpr std::uint8_t kEdaxNoMove = 65;
inline constexpr std::int8_t kEdaxNoScore = -127;

struct EdaxDate {
    std::int16_t year = 2026;
    std::int8_t month = 1, day = 1, hour = 0, minute = 0, second = 0;
};
// The date struct as Edax's compiler lays it out: 7 bytes of fields, padded to the i16's alignment.
struct EdaxDateLayout {
    std::int16_t year;
    std::int8_t month, day, hour, minute, second;
};
static_assert(sizeof(EdaxDateLayout) == 8, "Edax's date field is 8 bytes with its padding");

struct EdaxBookSettings {
    int level = 14;         // the level written with each position and in the header
    int midgame_error = 2;  // header options Edax uses to grow its book (not used here)
    int endcut_error = 1;
    EdaxDate date;
};

struct EdaxLink {
    std::int8_t score = kEdaxNoScore;
    std::uint8_t move = kEdaxNoMove;
    friend constexpr bool operator==(const EdaxLink&, const EdaxLink&) = default;
};
static_assert(sizeof(EdaxLink) == 2, "a link is 2 bytes");

struct EdaxPosition {
    BookKey board;  // as stored (player to move)
    std::int16_t value = 0;
    int level = 0;
    std::vector<EdaxLink> links;
    EdaxLink leaf;
};

// The book in Edax's format, positions sorted by key.
[[nodiscard]] std::vector<std::uint8_t> encode_edax_book(const Book& book, const EdaxBookSettings& settings);
// The positions of an Edax book; an error naming the defect for a file Edax would not have written
// (magic, version, truncation, count, overlapping discs, a move that is not legal, a score out of range).
[[nodiscard]] Expected<std::vector<EdaxPosition>> decode_edax_book(std::span<const std::uint8_t> bytes,
                                                                   const std::string& source);

}  // namespace reversi::book
