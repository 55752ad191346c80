#pragma once
// The opening book file ("RVBK" version 1).
//
// Layout, all integers little-endian:
//   offset size  field
//        0    4  magic "RVBK"
//        4    2  format version (kBookFormatVersion)
//        6    2  reserved, 0
//        8    4  position count
//       12    4  payload size in bytes
//       16    4  CRC-32 (IEEE, the weights file's crc32) of the payload
//       20    4  CRC-32 of header bytes 0..19
//       24     payload: `count` position records, sorted by (player, opponent), each key at most once:
//                 0  8  player   discs of the side to move, canonical image (book_key.hpp)
//                 8  8  opponent discs of the other side
//                16  1  move count n (1..32): every legal move of the position once
//                17 2n  n move records, squares ascending:
//                         0  1  square (0..63, canonical frame)
//                         1  1  value, int8, discs from the side to move (-64..64)
// A reader refuses whatever a writer would not write: the records are checked for canonical, sorted,
// legal and in-range contents, so a foreign or damaged file is an error naming the defect.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/book/book.hpp"
#include "engine/core/expected.hpp"

namespace reversi::book {

inline constexpr std::uint16_t kBookFormatVersion = 1;

struct BookHeader {
    char magic[4];
    std::uint16_t version;
    std::uint16_t reserved;
    std::uint32_t count;
    std::uint32_t payload_size;
    std::uint32_t payload_crc;
    std::uint32_t header_crc;
};
inline constexpr std::size_t kBookHeaderSize = 24;
static_assert(sizeof(BookHeader) == kBookHeaderSize, "the header is 24 bytes without padding");

struct BookMoveRecord {
    std::uint8_t square;
    std::int8_t value;
};
inline constexpr std::size_t kBookMoveRecordSize = 2;
static_assert(sizeof(BookMoveRecord) == kBookMoveRecordSize, "a move record is 2 bytes");

struct BookPositionRecord {  // followed by `moves` BookMoveRecords
    std::uint64_t player;
    std::uint64_t opponent;
    std::uint8_t moves;
};
inline constexpr std::size_t kBookPositionRecordSize = 17;
static_assert(offsetof(BookPositionRecord, moves) == kBookPositionRecordSize - 1,
              "a position record is two 64-bit words and the move count (17 bytes on disk)");

// The largest book file read: a bigger one is refused unread.
inline constexpr std::size_t kMaxBookFileBytes = std::size_t{64} << 20;

[[nodiscard]] std::vector<std::uint8_t> encode_book(const Book& book);
// Every defect is an error naming it: short header, bad magic, other version, header or payload checksum
// mismatch, truncated or over-long payload, and records that are not canonical, not sorted, overlapping,
// with illegal, repeated or missing moves or out-of-range values. `source` names the data in messages.
[[nodiscard]] Expected<Book> decode_book(std::span<const std::uint8_t> bytes, const std::string& source);
// Reads (only a regular file, at most kMaxBookFileBytes) and decodes; never throws.
[[nodiscard]] Expected<Book> load_book_file(const std::string& path, const std::string& source = {});
// Writes through replace_file (engine/core/replace_file.hpp): an interrupted save never leaves a half-written file.
[[nodiscard]] Expected<bool> save_book_file(const Book& book, const std::string& path);

}  // namespace reversi::book
