#include "engine/book/book_file.hpp"

#include <algorithm>
#include <new>

#include "engine/core/little_endian.hpp"
#include "engine/core/replace_file.hpp"
#include "engine/eval/weights/weights_file.hpp"

namespace reversi::book {

namespace {

constexpr char kMagic[4] = {'R', 'V', 'B', 'K'};

// The record's defect, or an empty string when it is one a writer could have written.
std::string check_record(const BookKey& key, const std::vector<BookMove>& moves) {
    if ((key.player & key.opponent) != 0) return "overlapping discs";
    if (popcount(key.player | key.opponent) < 4) return "fewer than 4 discs";
    if (canonical(key.player, key.opponent).key != key) return "position not in its canonical symmetry";
    const Bitboard legal = legal_moves(key.player, key.opponent);
    Bitboard seen = 0;
    for (const BookMove& m : moves) {
        if (m.square >= 64 || (legal & square_bit(m.square)) == 0) return "illegal move";
        if ((seen & square_bit(m.square)) != 0) return "repeated move";
        if (m.value < -kMaxBookValue || m.value > kMaxBookValue) return "move value out of range";
        seen |= square_bit(m.square);
    }
    if (seen != legal) return "a legal move is missing";
    return {};
}

}  // namespace

std::vector<std::uint8_t> encode_book(const Book& book) {
    std::vector<BookKey> keys;
    keys.reserve(book.size());
    for (const auto& [key, node] : book.nodes()) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    std::vector<std::uint8_t> payload;
    for (const BookKey& key : keys) {
        const BookNode& node = *book.find(key);
        put_le<std::uint64_t>(payload, key.player);
        put_le<std::uint64_t>(payload, key.opponent);
        payload.push_back(static_cast<std::uint8_t>(node.moves.size()));
        for (const BookMove& m : node.moves) {
            payload.push_back(m.square);
            payload.push_back(static_cast<std::uint8_t>(m.value));
        }
    }
    std::vector<std::uint8_t> out(kMagic, kMagic + 4);
    put_le<std::uint16_t>(out, kBookFormatVersion);
    put_le<std::uint16_t>(out, 0);
    put_le<std::uint32_t>(out, static_cast<std::uint32_t>(keys.size()));
    put_le<std::uint32_t>(out, static_cast<std::uint32_t>(payload.size()));
    put_le<std::uint32_t>(out, eval::crc32(payload));
    put_le<std::uint32_t>(out, eval::crc32(out));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

Expected<Book> decode_book(std::span<const std::uint8_t> bytes, const std::string& source) {
    auto fail = [&](const std::string& what) { return make_error("book " + source + ": " + what); };
    if (bytes.size() < kBookHeaderSize) return fail("truncated header (" + std::to_string(bytes.size()) + " bytes)");
    const std::uint8_t* h = bytes.data();
    if (!std::equal(kMagic, kMagic + 4, h)) return fail("not a book file (bad magic)");
    if (get_le<std::uint32_t>(h + 20) != eval::crc32(bytes.first(20))) {
        return fail("corrupted header (checksum mismatch)");
    }
    const auto version = get_le<std::uint16_t>(h + 4);
    if (version != kBookFormatVersion) {
        return fail("format version " + std::to_string(version) + ", this engine reads version " +
                    std::to_string(kBookFormatVersion));
    }
    if (get_le<std::uint16_t>(h + 6) != 0) return fail("corrupted header (reserved field not 0)");
    const std::uint32_t count = get_le<std::uint32_t>(h + 8);
    const std::uint32_t payload_size = get_le<std::uint32_t>(h + 12);
    const auto rest = bytes.subspan(kBookHeaderSize);
    if (rest.size() < payload_size) {
        return fail("truncated payload (" + std::to_string(rest.size()) + " of " + std::to_string(payload_size) +
                    " bytes)");
    }
    if (rest.size() > payload_size) return fail("trailing bytes after the payload");
    if (eval::crc32(rest) != get_le<std::uint32_t>(h + 16)) return fail("corrupted payload (checksum mismatch)");
    Book book;
    std::size_t at = 0;
    BookKey previous{};
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string record = "record " + std::to_string(i) + ": ";
        if (rest.size() - at < kBookPositionRecordSize) return fail(record + "payload ends inside the record");
        const BookKey key{get_le<std::uint64_t>(rest.data() + at), get_le<std::uint64_t>(rest.data() + at + 8)};
        const std::size_t n = rest[at + 16];
        at += kBookPositionRecordSize;
        if (n == 0 || n > kMaxBookMoves) return fail(record + "move count " + std::to_string(n) + " out of range");
        if (rest.size() - at < n * kBookMoveRecordSize) return fail(record + "payload ends inside the moves");
        if (i > 0 && !(previous < key)) return fail(record + "positions not sorted or repeated");
        BookNode node;
        node.moves.reserve(n);
        for (std::size_t j = 0; j < n; ++j) {
            const Move square = rest[at + 2 * j];
            if (j > 0 && square <= node.moves.back().square) return fail(record + "moves not sorted or repeated");
            node.moves.push_back({square, static_cast<std::int8_t>(rest[at + 2 * j + 1])});
        }
        at += n * kBookMoveRecordSize;
        if (const std::string defect = check_record(key, node.moves); !defect.empty()) {
            return fail(record + defect);
        }
        previous = key;
        book.insert(key, std::move(node));
    }
    if (at != rest.size()) return fail("payload longer than its " + std::to_string(count) + " records");
    return book;
}

Expected<Book> load_book_file(const std::string& path, const std::string& source) {
    const std::string name = source.empty() ? path : source;
    auto bytes = eval::read_weights_bytes(path, kMaxBookFileBytes, name, "book");
    if (!bytes) return bytes.error();
    try {
        return decode_book(*bytes, name);
    } catch (const std::bad_alloc&) {
        return make_error("book " + name + ": out of memory");
    }
}

Expected<bool> save_book_file(const Book& book, const std::string& path) {
    return replace_file(path, encode_book(book), "book");
}

}  // namespace reversi::book
