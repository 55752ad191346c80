// Edax's book.dat (engine/book/edax_book.hpp, edax_import.hpp): the documented layout, the round trip
// through Edax's format with the same evaluator, and damaged files refused with an error.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "book_checks.hpp"
#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/book/book_file.hpp"
#include "engine/book/edax_book.hpp"
#include "engine/book/edax_import.hpp"
#include "engine/core/little_endian.hpp"

using namespace reversi;
using namespace reversi::book;

namespace {

using testing::toy_book;
using testing::toy_evaluation;

EdaxBookSettings fixed_settings() {
    EdaxBookSettings s;
    s.level = 12;
    s.date = {2026, 11, 25, 6, 40, 0};
    return s;
}

std::string edax_decode_error(const std::vector<std::uint8_t>& bytes) {
    auto positions = decode_edax_book(bytes, "test");
    return positions ? std::string() : positions.error().message;
}

}  // namespace

TEST_CASE("Edax book: the header and position records are the documented layout") {
    const Book book = toy_book(5, 2);
    const auto bytes = encode_edax_book(book, fixed_settings());
    REQUIRE(bytes.size() > kEdaxHeaderSize);
    CHECK(std::string(bytes.begin(), bytes.begin() + 8) == "XADEKOOB");  // EDAX, BOOK as little-endian u32
    CHECK(bytes[8] == 4);
    CHECK(bytes[9] == 6);
    CHECK(get_le<std::int16_t>(bytes.data() + 10) == 2026);
    CHECK(bytes[12] == 11);
    CHECK(bytes[13] == 25);
    CHECK(get_le<std::int32_t>(bytes.data() + 18) == 12);  // level
    CHECK(get_le<std::int32_t>(bytes.data() + 38) == static_cast<std::int32_t>(book.size()));
    auto positions = decode_edax_book(bytes, "memory");
    REQUIRE_MESSAGE(positions, (positions ? "" : positions.error().message));
    REQUIRE(positions->size() == book.size());
    std::size_t expected = kEdaxHeaderSize;
    for (const EdaxPosition& p : *positions) {
        expected += kEdaxPositionSize + 2 * (p.links.size() + 1);
        const BookNode* node = book.find(p.board);
        REQUIRE(node != nullptr);  // stored in the canonical image, Edax's unique one
        CHECK(p.level == 12);
        const Position pos{p.board.player, p.board.opponent};
        int best = -65;
        for (const BookMove& m : node->moves) best = std::max<int>(best, m.value);
        CHECK(p.value == best);
        // Links: exactly the moves whose position is in the book; the leaf: the best of the others.
        std::size_t linked = 0;
        int best_other = -128;
        for (const BookMove& m : node->moves) {
            const BookChild child = book_child(pos, m.square);
            const bool in_book = !child.final_value && child.sign < 0 && book.contains(child.position);
            const bool is_link = std::any_of(p.links.begin(), p.links.end(), [&](const EdaxLink& l) {
                return l.move == m.square && l.score == m.value;
            });
            CHECK(is_link == in_book);
            linked += in_book ? 1 : 0;
            if (!in_book) best_other = std::max<int>(best_other, m.value);
        }
        CHECK(p.links.size() == linked);
        if (linked == node->moves.size()) {
            CHECK(p.leaf == EdaxLink{});
        } else {
            CHECK(p.leaf.score == best_other);
        }
    }
    CHECK(bytes.size() == expected);
}

TEST_CASE("Edax book: export then import with the same evaluator gives the same book") {
    const Book book = toy_book(6, 2);
    auto positions = decode_edax_book(encode_edax_book(book, fixed_settings()), "memory");
    REQUIRE(positions);
    Book back;
    const auto report = import_edax_positions(back, *positions, toy_evaluation);
    CHECK(report.read == book.size());
    CHECK(report.added == book.size());
    CHECK(report.already == 0);
    CHECK(back.size() == book.size());
    for (const auto& [key, node] : book.nodes()) {
        const BookNode* other = back.find(key);
        REQUIRE(other != nullptr);
        CHECK(other->moves == node.moves);
    }
    testing::check_move_values(back);
    // A second import adds nothing and searches nothing.
    const auto again = import_edax_positions(back, *positions, toy_evaluation);
    CHECK(again.added == 0);
    CHECK(again.already == book.size());
    CHECK(again.evaluations == 0);
    // A stop before the first position adds nothing.
    Book stopped;
    const std::atomic<bool> stop{true};
    const auto cut = import_edax_positions(stopped, *positions, toy_evaluation, {}, &stop);
    CHECK(cut.stopped);
    CHECK(stopped.empty());
}

TEST_CASE("Edax book: a position whose side must pass is read (its pass link is legal) and not stored") {
    // The side to move (c1, h8) has no move while the other (a1, b1) has d1: Edax stores such a position
    // with a pass link; this book keeps the position after the pass instead.
    const Position pos{square_bit(2) | square_bit(63), square_bit(0) | square_bit(1)};
    REQUIRE(pos.moves() == 0);
    REQUIRE(pos.opponent_moves() != 0);
    EdaxPosition p;
    p.board = canonical(pos).key;
    p.links.push_back({3, kPass});
    const EdaxPosition ok = p;
    auto encode_one = [](const EdaxPosition& e) {
        std::vector<std::uint8_t> out;
        put_le<std::uint32_t>(out, kEdaxMagic);
        put_le<std::uint32_t>(out, kEdaxBookMagic);
        out.push_back(4);
        out.push_back(6);
        out.resize(38, 0);
        put_le<std::int32_t>(out, 1);
        put_le<std::uint64_t>(out, e.board.player);
        put_le<std::uint64_t>(out, e.board.opponent);
        out.resize(out.size() + 22, 0);
        out.push_back(static_cast<std::uint8_t>(e.links.size()));
        out.push_back(static_cast<std::uint8_t>(e.level));
        for (const EdaxLink& l : e.links) {
            out.push_back(static_cast<std::uint8_t>(l.score));
            out.push_back(l.move);
        }
        out.push_back(static_cast<std::uint8_t>(e.leaf.score));
        out.push_back(e.leaf.move);
        return out;
    };
    auto decoded = decode_edax_book(encode_one(ok), "one");
    REQUIRE_MESSAGE(decoded, (decoded ? "" : decoded.error().message));
    REQUIRE(decoded->size() == 1);
    Book book;
    const auto report = import_edax_positions(book, *decoded, toy_evaluation);
    CHECK(report.no_move == 1);
    CHECK(report.added == 0);
    CHECK(book.empty());
    // An illegal link (a1 is occupied or unplayable) is refused.
    EdaxPosition bad = ok;
    bad.links.push_back({0, 0});
    CHECK(edax_decode_error(encode_one(bad)).find("illegal move") != std::string::npos);
    EdaxPosition out_of_range = ok;
    out_of_range.links.front().score = 70;
    CHECK(edax_decode_error(encode_one(out_of_range)).find("out of range") != std::string::npos);
}

TEST_CASE("Edax book: every truncation and foreign or damaged files are errors naming the defect") {
    const auto bytes = encode_edax_book(toy_book(4, 1), fixed_settings());
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const std::string e =
            edax_decode_error(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)));
        CHECK_MESSAGE(!e.empty(), "truncated to " << n);
        CHECK(e.find("Edax book test: ") == 0);
    }
    auto magic = bytes;
    magic[0] ^= 1;
    CHECK(edax_decode_error(magic).find("bad magic") != std::string::npos);
    auto version = bytes;
    version[8] = 3;
    CHECK(edax_decode_error(version).find("version 3") != std::string::npos);
    auto longer = bytes;
    longer.push_back(0);
    CHECK(edax_decode_error(longer).find("bytes after") != std::string::npos);
    auto count = bytes;
    count[38] += 1;
    CHECK(edax_decode_error(count).find("file ends inside") != std::string::npos);
    auto overlap = bytes;
    for (int i = 0; i < 8; ++i) overlap[kEdaxHeaderSize + i] |= overlap[kEdaxHeaderSize + 8 + i];
    CHECK(edax_decode_error(overlap).find("overlapping") != std::string::npos);
    // Every single damaged byte: an error or a file that still decodes to legal positions, never a crash.
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        auto damaged = bytes;
        damaged[i] ^= 0x5a;
        (void)edax_decode_error(damaged);
    }
}

TEST_CASE("reversi-book export-edax and import-edax: the shipped book there and back, errors reported") {
    const std::filesystem::path tool = std::filesystem::path(REVERSI_BINARY_DIR) / "tools" / "reversi-book";
    if (!std::filesystem::exists(tool)) {
        MESSAGE("skipped: " << tool.string() << " is not built");
        return;
    }
    const auto temp = [](const char* name) {
        return (std::filesystem::temp_directory_path() / (std::string("reversi-edax-test-") + name)).string();
    };
    const std::string shipped = std::string(REVERSI_SOURCE_DIR) + "/engine/data/opening.book";
    const std::string dat = temp("book.dat");
    const std::string back = temp("back.book");
    const std::string err = temp("err.txt");
    std::filesystem::remove(back);
    const std::string tool_path = tool.string();
    REQUIRE(std::system((tool_path + " export-edax --book " + shipped + " --out " + dat + " 2> " + err).c_str()) == 0);
    const std::string import =
        tool_path + " import-edax --book " + back + " --edax " + dat + " --depth 2 --hash 4 2> " + err;
    REQUIRE(std::system(import.c_str()) == 0);
    auto original = load_book_file(shipped);
    auto imported = load_book_file(back);
    REQUIRE(original);
    REQUIRE(imported);
    CHECK(imported->size() == original->size());
    for (const auto& [key, node] : original->nodes()) CHECK(imported->find(key) != nullptr);
    REQUIRE(std::system(import.c_str()) == 0);  // again: nothing to add
    {
        std::ifstream in(err);
        const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK_MESSAGE(log.find("0 added, " + std::to_string(original->size()) + " already there") != std::string::npos,
                      log);
    }
    std::filesystem::resize_file(dat, 100);  // cut inside the first positions
    CHECK(std::system(import.c_str()) != 0);
    {
        std::ifstream in(err);
        const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK_MESSAGE(log.find("file ends inside") != std::string::npos, log);
    }
    CHECK(std::system((tool_path + " export-edax --book " + shipped + " 2> " + err).c_str()) != 0);  // no --out
    // A misspelt command is named (before, only the usage was printed).
    CHECK(WEXITSTATUS(std::system((tool_path + " export-edx --book " + shipped + " 2> " + err).c_str())) == 2);
    {
        std::ifstream in(err);
        const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        CHECK_MESSAGE(log.find("unknown command 'export-edx' (build, learn, show, export-edax, import-edax)") !=
                          std::string::npos,
                      log);
    }
    for (const auto& p : {dat, back, err}) std::filesystem::remove(p);
}
