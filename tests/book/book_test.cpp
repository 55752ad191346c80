// The opening book: canonical keys, negamax, deviation growth and resumption, and the book file (round trip,
// and every kind of damage reported as an error, never a crash).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "book_checks.hpp"
#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/book/book_file.hpp"
#include "engine/book/deviation.hpp"
#include "engine/core/little_endian.hpp"
#include "engine/eval/weights/weights_file.hpp"

using namespace reversi;
using namespace reversi::book;

namespace {

using testing::toy_book;
using testing::toy_evaluation;

Position after(const char* transcript) {
    auto pos = play_transcript(start_position(), transcript);
    REQUIRE(pos);
    return *pos;
}

std::string temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() / (std::string("reversi-book-test-") + name)).string();
}

// Rewrites the payload and header checksums after an edit, so that the record checks are reached.
void reseal(std::vector<std::uint8_t>& bytes) {
    std::vector<std::uint8_t> crc;
    const std::span<const std::uint8_t> payload(bytes.data() + kBookHeaderSize, bytes.size() - kBookHeaderSize);
    put_le<std::uint32_t>(crc, eval::crc32(payload));
    std::copy(crc.begin(), crc.end(), bytes.begin() + 16);
    crc.clear();
    put_le<std::uint32_t>(crc, eval::crc32(std::span<const std::uint8_t>(bytes.data(), 20)));
    std::copy(crc.begin(), crc.end(), bytes.begin() + 20);
}

std::string decode_error(const std::vector<std::uint8_t>& bytes) {
    auto book = decode_book(bytes, "test");
    return book ? std::string() : book.error().message;
}

}  // namespace

TEST_CASE("book keys are the same for the 8 symmetric images and moves map back to each image") {
    const Position pos = after("f5d6c3d3c4");
    const CanonicalPosition c = canonical(pos);
    Book book;
    std::vector<BookMove> moves;
    int value = 10;
    for (const int sq : squares(pos.moves()))
        moves.push_back({static_cast<Move>(sq), static_cast<std::int8_t>(value--)});
    REQUIRE(book.set_moves(pos, moves));
    for (int g = 0; g < eval::kSymmetryCount; ++g) {
        const Position image{eval::transform(g, pos.player), eval::transform(g, pos.opponent)};
        CHECK(canonical(image).key == c.key);
        const auto image_moves = book.moves(image);
        REQUIRE(image_moves.size() == moves.size());
        for (const BookMove& m : image_moves) {
            CHECK((image.moves() & square_bit(m.square)) != 0);
            const auto original = static_cast<Move>(eval::unmap_square(g, m.square));
            const auto it =
                std::find_if(moves.begin(), moves.end(), [&](const BookMove& o) { return o.square == original; });
            REQUIRE(it != moves.end());
            CHECK(it->value == m.value);
        }
    }
    CHECK(book.value(pos) == 10);
    CHECK_FALSE(book.contains(start_position()));
    CHECK(book.moves(start_position(Variant::Board6x6)).empty());
}

TEST_CASE("book growth by deviation stores every legal move and its values are the negamax of the leaves") {
    const Book narrow = toy_book(6, 0);
    const Book wide = toy_book(6, 3);
    CHECK(narrow.size() >= 5);
    CHECK(wide.size() > narrow.size());
    testing::check_move_values(wide);
    // The root's four moves are symmetric: one value, and one position after them.
    const auto root = wide.moves(start_position());
    REQUIRE(root.size() == 4);
    CHECK(root.front().value == root.back().value);
    CHECK(wide.contains(after("f5")));
    CHECK(wide.contains(after("d3")));
    // Book positions are at most plies - 1 = 5 moves deep.
    for (const auto& [key, node] : wide.nodes()) CHECK(popcount(key.player | key.opponent) <= 4 + 5);
}

TEST_CASE("book choice plays the best move or one within the randomness") {
    const std::vector<BookMove> moves{{19, 4}, {26, 3}, {37, 1}, {44, -6}};
    CHECK(choose_book_move(moves, 0, 12345).square == 19);
    for (std::uint64_t r = 0; r < 16; ++r) {
        const BookMove m = choose_book_move(moves, 3, r);
        CHECK(m.value >= 1);
        CHECK(choose_book_move(moves, 1, r).value >= 3);
    }
    CHECK(choose_book_move(moves, 64, 3).square == 44);
}

TEST_CASE("book growth resumes from a saved book and does not evaluate a position twice") {
    const std::string path = temp_path("resume.book");
    std::atomic<bool> stop{false};
    Book first;
    GrowthCallbacks callbacks;
    callbacks.save = [&](const Book& b) { REQUIRE(save_book_file(b, path)); };
    callbacks.on_progress = [&](const GrowthReport& r) {
        if (r.added == 7) stop = true;
    };
    const GrowthReport cut = grow_by_deviation(first, start_position(), {6, 2, 3}, toy_evaluation, callbacks, &stop);
    CHECK(cut.stopped);
    CHECK(cut.added == 7);
    auto saved = load_book_file(path);
    REQUIRE_MESSAGE(saved, (saved ? "" : saved.error().message));
    CHECK(saved->size() == 7);

    Book resumed = std::move(*saved);
    // The evaluator is never asked for a position the book already holds.
    auto checked = [&resumed](const Position& pos) {
        CHECK_FALSE(resumed.contains(pos));
        return toy_evaluation(pos);
    };
    const GrowthReport rest = grow_by_deviation(resumed, start_position(), {6, 2, 3}, checked, {callbacks.save, {}});
    CHECK_FALSE(rest.stopped);
    CHECK(rest.added > 0);
    for (const auto& [key, node] : first.nodes()) CHECK(resumed.find(key) != nullptr);
    // Negamaxed values may bring more moves within the deviation: rerun until nothing is added, after which
    // a run adds nothing and searches nothing.
    int runs = 0;
    while (grow_by_deviation(resumed, start_position(), {6, 2, 3}, checked).added != 0 && runs < 20) ++runs;
    CHECK(runs < 20);
    const GrowthReport again = grow_by_deviation(resumed, start_position(), {6, 2, 3}, checked);
    CHECK(again.added == 0);
    CHECK(again.evaluations == 0);
    std::filesystem::remove(path);
}

TEST_CASE("book file round-trips and its layout is the documented one") {
    const Book book = toy_book(5, 2);
    const auto bytes = encode_book(book);
    std::size_t expected = kBookHeaderSize;
    for (const auto& [key, node] : book.nodes())
        expected += kBookPositionRecordSize + node.moves.size() * kBookMoveRecordSize;
    CHECK(bytes.size() == expected);
    CHECK(get_le<std::uint32_t>(bytes.data() + 8) == book.size());
    auto back = decode_book(bytes, "memory");
    REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
    CHECK(back->size() == book.size());
    for (const auto& [key, node] : book.nodes()) {
        const BookNode* other = back->find(key);
        REQUIRE(other != nullptr);
        CHECK(other->moves == node.moves);
    }
    CHECK(encode_book(*back) == bytes);

    const std::string path = temp_path("roundtrip.book");
    REQUIRE(save_book_file(book, path));
    auto loaded = load_book_file(path);
    REQUIRE(loaded);
    CHECK(loaded->size() == book.size());
    std::filesystem::remove(path);
    auto missing = load_book_file(path);
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("book ") == 0);
    CHECK(missing.error().message.find("cannot open") != std::string::npos);
    auto directory = load_book_file(std::filesystem::temp_directory_path().string());
    REQUIRE_FALSE(directory);
    CHECK(directory.error().message.find("not a regular file") != std::string::npos);
}

TEST_CASE("book file: every truncation and every damaged byte is an error naming the defect") {
    const auto bytes = encode_book(toy_book(4, 1));
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const std::string e =
            decode_error(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)));
        CHECK_MESSAGE(!e.empty(), "truncated to " << n);
        if (n < kBookHeaderSize) CHECK(e.find("truncated header") != std::string::npos);
        if (n >= kBookHeaderSize) CHECK(e.find("truncated payload") != std::string::npos);
    }
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        auto damaged = bytes;
        damaged[i] ^= 0x10;
        CHECK_MESSAGE(!decode_error(damaged).empty(), "byte " << i);
    }
    auto longer = bytes;
    longer.push_back(0);
    CHECK(decode_error(longer).find("trailing bytes") != std::string::npos);
    auto payload = bytes;
    payload.back() ^= 1;
    CHECK(decode_error(payload).find("corrupted payload") != std::string::npos);
    auto header = bytes;
    header[9] ^= 1;
    CHECK(decode_error(header).find("corrupted header") != std::string::npos);
    auto version = bytes;
    version[4] = 9;
    reseal(version);
    CHECK(decode_error(version).find("format version 9") != std::string::npos);
    // A weights file (another of the project's formats) is not a book.
    CHECK(decode_error(eval::encode_weights(eval::WeightSet{})).find("bad magic") != std::string::npos);
}

TEST_CASE("book file: records a writer would not write are refused after their checksums pass") {
    const auto bytes = encode_book(toy_book(4, 1));
    const std::size_t first = kBookHeaderSize;
    const std::size_t n = bytes[first + 16];
    auto with = [&](auto edit) {
        auto b = bytes;
        edit(b);
        reseal(b);
        return decode_error(b);
    };
    CHECK(with([&](auto& b) { b[first + 17] = 0; }).find("illegal move") != std::string::npos);  // a1
    CHECK(with([&](auto& b) { b[first + 18] = 100; }).find("out of range") != std::string::npos);
    CHECK(with([&](auto& b) { b[first + 16] = 0; }).find("move count 0") != std::string::npos);
    if (n >= 2)
        CHECK(with([&](auto& b) { b[first + 19] = b[first + 17]; }).find("not sorted or repeated") !=
              std::string::npos);
    // Swap player and opponent of the first record: other discs, the canonical check or the move check fails.
    CHECK_FALSE(with([&](auto& b) {
                    for (int i = 0; i < 8; ++i) std::swap(b[first + i], b[first + 8 + i]);
                }).empty());
    CHECK(with([&](auto& b) {
              for (int i = 0; i < 8; ++i) b[first + i] |= b[first + 8 + i];
          }).find("overlapping") != std::string::npos);
    CHECK(with([&](auto& b) { b[8] += 1; }).find("payload ends inside") != std::string::npos);
    CHECK(with([&](auto& b) { b[8] -= 1; }).find("payload longer") != std::string::npos);
    // Another image of a position is not canonical (nor, maybe, in order): refused either way.
    const std::size_t second = first + kBookPositionRecordSize + n * kBookMoveRecordSize;
    REQUIRE(second < bytes.size());
    const BookKey k{get_le<std::uint64_t>(bytes.data() + second), get_le<std::uint64_t>(bytes.data() + second + 8)};
    int g = 1;
    while (g < eval::kSymmetryCount && eval::transform(g, k.player) == k.player &&
           eval::transform(g, k.opponent) == k.opponent) {
        ++g;
    }
    REQUIRE(g < eval::kSymmetryCount);
    const std::string e = with([&](auto& b) {
        std::vector<std::uint8_t> w;
        put_le<std::uint64_t>(w, eval::transform(g, k.player));
        put_le<std::uint64_t>(w, eval::transform(g, k.opponent));
        std::copy(w.begin(), w.end(), b.begin() + static_cast<std::ptrdiff_t>(second));
    });
    CHECK_MESSAGE((e.find("canonical") != std::string::npos || e.find("not sorted") != std::string::npos), e);
}

TEST_CASE("the shipped book loads, holds the start position and its values are negamaxed") {
    auto shipped = load_book_file(std::string(REVERSI_SOURCE_DIR) + "/engine/data/opening.book");
    REQUIRE_MESSAGE(shipped, (shipped ? "" : shipped.error().message));
    CHECK(shipped->size() > 100);
    const auto root = shipped->moves(start_position());
    REQUIRE(root.size() == 4);
    CHECK(std::abs(root.front().value) <= 4);  // the start is about even
    CHECK(shipped->contains(after("f5")));
    Book again = std::move(*shipped);
    CHECK(again.negamax() == 0);
}
