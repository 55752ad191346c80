// The opening book through the engine binary: BookFile, Book, BookRandomness, --book, `d`, NBoard go and hint.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/book/book_file.hpp"
#include "engine/book/deviation.hpp"
#include "engine_process.hpp"
#include "tests/support/text_checks.hpp"

using namespace reversi;
using namespace reversi::testing;

namespace {

// A small book from the start (4 plies, every move followed), with values from a cheap evaluation.
std::string write_test_book(const char* name) {
    book::Book b;
    (void)book::grow_by_deviation(b, start_position(), {4, 64, 0}, [](const Position& pos) {
        return popcount(pos.moves()) - popcount(pos.opponent_moves());
    });
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    REQUIRE(book::save_book_file(b, path));
    return path;
}

bool is_opening_move(const std::string& m) { return m == "d3" || m == "c4" || m == "f5" || m == "e6"; }

}  // namespace

TEST_CASE("book: a clock go in a book position is answered from the book, go depth and Book false search") {
    const std::string path = write_test_book("reversi-book-session.book");
    EngineProcess engine;
    auto& io = engine.io();
    io.send("setoption name BookFile value " + path);
    io.send("position startpos");
    io.send("go wtime 10000 btime 10000");
    auto lines = io.read_until("bestmove ");
    REQUIRE(lines.size() == 2);
    CHECK(starts_with(lines[0], "info string book move "));
    CHECK(lines[0].find(" value ") != std::string::npos);
    const std::string move = lines[1].substr(9);
    CHECK(is_opening_move(move));
    CHECK(lines[0] == "info string book move " + move + lines[0].substr(lines[0].find(" value ")));
    // A fixed-depth go searches as without a book (the tests' and the bench's searches stay the same).
    io.send("go depth 3");
    lines = io.read_until("bestmove ");
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "info depth "); }) >= 1);
    CHECK(std::none_of(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "info string book"); }));
    // d shows the book moves of the position.
    io.send("d");
    lines = io.read_until("moves:");
    CHECK(std::count_if(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "Book: "); }) == 1);
    // Out of book (5 plies deep) the clock go searches.
    io.send("position startpos moves f5d6c3d3c4");
    io.send("go movetime 50");
    lines = io.read_until("bestmove ");
    CHECK(std::none_of(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "info string book"); }));
    // Book false: no book move.
    io.send("setoption name Book value false");
    io.send("position startpos moves f5");
    io.send("go movetime 50");
    lines = io.read_until("bestmove ");
    CHECK(std::none_of(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "info string book"); }));
    io.send("setoption name Book value true");
    io.send("setoption name BookRandomness value 64");
    io.send("go movetime 50");
    lines = io.read_until("bestmove ");
    REQUIRE(lines.size() == 2);
    CHECK(starts_with(lines[0], "info string book move "));
    // A bad file is refused and the old book stays.
    io.send("setoption name BookFile value " + engine_binary());
    auto l = io.read_line();
    REQUIRE(l);
    CHECK_MESSAGE(starts_with(*l, "info string error: setoption BookFile: "), *l);
    CHECK_MESSAGE(l->find("the old book stays") != std::string::npos, *l);
    io.send("go movetime 50");
    lines = io.read_until("bestmove ");
    CHECK(starts_with(lines.front(), "info string book move "));
    io.send("quit");
    CHECK(engine.wait_exit() == 0);
    std::filesystem::remove(path);
}

TEST_CASE("book: --book serves NBoard go and hint from the book") {
    const std::string path = write_test_book("reversi-book-nboard.book");
    EngineProcess engine({"--book", path});
    auto& io = engine.io();
    io.send("nboard 2");
    REQUIRE(io.read_line());
    io.send("set depth 4");
    io.send(
        "set game (;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[5:00]TY[8]"
        "BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
    io.send("hint 2");
    auto lines = io.read_until("status");
    REQUIRE(lines.size() == 3);
    CHECK(starts_with(lines[0], "book "));
    CHECK(starts_with(lines[1], "book "));
    io.send("go");
    lines = io.read_until("=== ");
    REQUIRE(!lines.empty());
    CHECK(std::none_of(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "nodestats "); }));
    io.send("quit");
    CHECK(engine.wait_exit() == 0);
    std::filesystem::remove(path);
}

TEST_CASE("book: over TCP BookFile is refused and --book serves every session") {
    const std::string path = write_test_book("reversi-book-tcp.book");
    ServerProcess server({"--data-dir", std::filesystem::temp_directory_path().string(), "--book", path});
    LineChannel client = server.connect();
    client.send("setoption name BookFile value reversi-book-tcp.book");
    auto l = client.read_line(20s);
    REQUIRE(l);
    CHECK_MESSAGE(starts_with(*l, "info string error: setoption BookFile: not available over the network"), *l);
    client.send("go movetime 50");
    const auto lines = client.read_until("bestmove ", 20s);
    REQUIRE(lines.size() == 2);
    CHECK(starts_with(lines[0], "info string book move "));
    client.send("quit");
    std::filesystem::remove(path);
}

namespace {

// Tiger (f5 d6 c3 d3 c4 f4 c5 b3), 8 plies: its positions after 4 to 8 plies are not in write_test_book's book.
constexpr const char* kTigerGgf =
    "set game (;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[5:00]TY[8]"
    "BO[8 ---------------------------O*------*O--------------------------- *]"
    "B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[C5]W[B3];)";

std::vector<Position> tiger_positions() {
    std::vector<Position> positions{start_position()};
    for (const char* m : {"f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3"}) {
        positions.push_back(positions.back().play(*parse_move(m)));
    }
    return positions;
}

}  // namespace

TEST_CASE("book: NBoard learn adds the game to the --book file and to the session's book") {
    const std::string path = write_test_book("reversi-book-learn.book");
    const auto before = book::load_book_file(path);
    REQUIRE(before);
    const auto positions = tiger_positions();
    CHECK(!before->contains(positions.back()));
    EngineProcess engine({"--book", path});
    auto& io = engine.io();
    io.send("nboard 2");
    REQUIRE(io.read_line());
    io.send("set depth 2");
    io.send(kTigerGgf);
    io.send("learn");
    auto lines = io.read_until("learned", 60s);
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "learned");
    CHECK(std::any_of(lines.begin(), lines.end(), [](const auto& l) { return l == "status learning"; }));
    CHECK_MESSAGE(std::any_of(lines.begin(), lines.end(),
                              [](const auto& l) { return starts_with(l, "status learn: 5 new positions ("); }),
                  lines.front());
    // The file on disk holds every position of the game now (and what it held before).
    const auto after = book::load_book_file(path);
    REQUIRE(after);
    for (const Position& p : positions) CHECK(after->contains(p));
    CHECK(after->size() == before->size() + 5);
    CHECK(!std::filesystem::exists(path + ".tmp"));
    // And so does the session's book: hint in the game's last position answers from it.
    io.send("hint 1");
    lines = io.read_until("status");
    REQUIRE(lines.size() == 2);
    CHECK(starts_with(lines[0], "book "));
    // Learning it again adds nothing.
    io.send("learn");
    lines = io.read_until("learned", 60s);
    CHECK(std::any_of(lines.begin(), lines.end(),
                      [](const auto& l) { return starts_with(l, "status learn: 0 new positions (0 searches)"); }));
    io.send("quit");
    CHECK(engine.wait_exit() == 0);
    std::filesystem::remove(path);
}

TEST_CASE("book: NBoard learn without a book and over TCP is ignored with a status line") {
    {
        EngineProcess engine;
        auto& io = engine.io();
        io.send("nboard 2");
        REQUIRE(io.read_line());
        io.send("learn");
        const auto lines = io.read_until("learned");
        REQUIRE(lines.size() == 2);
        CHECK(lines[0] == "status no opening book: learn ignored");
        io.send("quit");
        CHECK(engine.wait_exit() == 0);
    }
    const std::string path = write_test_book("reversi-book-learn-tcp.book");
    const auto before = book::load_book_file(path);
    REQUIRE(before);
    ServerProcess server({"--book", path});
    LineChannel client = server.connect();
    client.send("nboard 2");
    REQUIRE(client.read_line(20s));
    client.send(kTigerGgf);
    client.send("learn");
    const auto lines = client.read_until("learned", 20s);
    REQUIRE(lines.size() == 2);
    CHECK_MESSAGE(starts_with(lines[0], "status learn ignored: a network session does not write the book file"),
                  lines[0]);
    CHECK(book::load_book_file(path)->size() == before->size());
    client.send("quit");
    std::filesystem::remove(path);
}
