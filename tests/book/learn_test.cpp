// Learning games into a book (engine/book/learn.hpp): every position up to the ply limit with all its moves
// valued by the engine's search, negamax consistency, idempotence, passes, bad input; and `reversi-book
// learn` on a games file (GGF games and transcripts, bad games skipped with a message).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "book_checks.hpp"
#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/book/book_file.hpp"
#include "engine/book/leaf_search.hpp"
#include "engine/book/learn.hpp"
#include "engine/data/wthor_writer.hpp"

using namespace reversi;
using namespace reversi::book;

namespace learn_test {

// A whole game from the start, each move picked by a fixed pseudo-random sequence; passes included.
std::vector<Move> random_game(std::uint64_t seed) {
    std::vector<Move> moves;
    Position pos = start_position();
    std::uint64_t x = seed;
    while (!pos.is_over()) {
        if (pos.must_pass()) {
            moves.push_back(kPass);
            pos = pos.pass();
            continue;
        }
        std::vector<Move> legal;
        for (const int sq : squares(pos.moves())) legal.push_back(static_cast<Move>(sq));
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const Move m = legal[(x >> 33) % legal.size()];
        moves.push_back(m);
        pos = pos.play(m);
    }
    return moves;
}

// The index of the first pass that the game goes on after, or -1.
int first_inner_pass(const std::vector<Move>& moves) {
    for (std::size_t i = 0; i + 1 < moves.size(); ++i) {
        if (moves[i] == kPass && moves[i + 1] != kPass) return static_cast<int>(i);
    }
    return -1;
}

int depth4_search(const Position& pos) {
    Searcher searcher(16);
    use_engine_search_options(searcher, 1);
    SearchLimits limits;
    limits.depth = 4;
    const std::atomic<bool> never{false};
    return searcher.search(pos, limits, {}, never).score;
}

// Each book value is its move's (book_checks.hpp) and each node is negamaxed (a negamax changes nothing).
void check_negamaxed(Book& book) {
    testing::check_move_values(book);
    CHECK(book.negamax() == 0);
}

int cheap_value(const Position& pos) { return popcount(pos.moves()) - popcount(pos.opponent_moves()); }

std::string learn_temp(const char* name) {
    return (std::filesystem::temp_directory_path() / (std::string("reversi-learn-test-") + name)).string();
}

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The game as one GGF line (the start position, B[..]/W[..] moves, passes as PA).
std::string ggf_line(const std::vector<Move>& moves) {
    std::string s = "(;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 ";
    s += "---------------------------O*------*O--------------------------- *]";
    Position pos = start_position();
    for (const Move m : moves) {
        s += pos.side == Color::Black ? "B[" : "W[";
        s += m == kPass ? "PA" : move_to_string(m);
        s += "]";
        pos = pos.play_move(m);
    }
    return s + ";)";
}

}  // namespace learn_test

using namespace learn_test;

TEST_CASE("book learning adds each game position with all its legal moves valued by a depth-4 search") {
    const auto moves = random_game(7);
    REQUIRE(moves.size() >= 58);
    Searcher searcher(16);
    use_engine_search_options(searcher, 1);
    const std::atomic<bool> never{false};
    const auto search = searched_evaluator(searcher, {4, 20}, never);
    // A clear table before each search: the values then do not depend on what was searched before.
    const PositionEvaluator evaluate = [&](const Position& p) {
        searcher.clear();
        return search(p);
    };
    Book book;
    const auto report = learn_game(book, start_position(), moves, {10}, evaluate);
    REQUIRE(report);
    CHECK(report->added == 10);
    CHECK(book.size() == 10);
    const auto positions = game_positions(start_position(), moves);
    REQUIRE(positions);
    std::size_t legal = 0, leaves = 0;
    for (std::size_t i = 0; i < positions->size(); ++i) {
        const Position& pos = (*positions)[i];
        CHECK(book.contains(pos) == (i < 10));
        if (i >= 10) continue;
        legal += static_cast<std::size_t>(popcount(pos.moves()));
        const auto stored = book.moves(pos);
        CHECK(stored.size() == static_cast<std::size_t>(popcount(pos.moves())));
        for (const BookMove& m : stored) {
            const BookChild child = book_child(pos, m.square);
            if (child.final_value || book.contains(child.position)) continue;
            CHECK_MESSAGE(m.value == child.sign * depth4_search(child.position), move_to_string(m.square));
            ++leaves;
        }
    }
    CHECK(report->evaluations == legal);  // every move of every new position was searched
    CHECK(leaves >= legal / 2);           // the others lead to a learned position (the game's move, or a symmetric one)
    check_negamaxed(book);
}

TEST_CASE("book learning the same game twice changes nothing and a second game keeps the book negamaxed") {
    const auto first = random_game(11);
    const auto second = random_game(12);
    Book book;
    REQUIRE(learn_game(book, start_position(), first, {12}, cheap_value));
    const auto bytes = encode_book(book);
    const auto again = learn_game(book, start_position(), first, {12}, cheap_value);
    REQUIRE(again);
    CHECK(again->added == 0);
    CHECK(again->evaluations == 0);
    CHECK(encode_book(book) == bytes);
    const auto other = learn_game(book, start_position(), second, {12}, cheap_value);
    REQUIRE(other);
    CHECK(other->added >= 1);
    CHECK(other->added <= 11);  // the start position is shared
    CHECK(book.size() == 12 + other->added);
    check_negamaxed(book);
}

TEST_CASE("book learning a game with a pass stores the position after the pass, explicit or implied") {
    std::vector<Move> moves;
    for (std::uint64_t seed = 1; seed < 20000 && first_inner_pass(moves) < 0; ++seed) moves = random_game(seed);
    const int pass = first_inner_pass(moves);
    REQUIRE(pass > 0);
    const auto positions = game_positions(start_position(), moves);
    REQUIRE(positions);
    const Position before_pass = (*positions)[static_cast<std::size_t>(pass)];
    const Position after_pass = before_pass.pass();
    REQUIRE(before_pass.must_pass());
    Book book;
    const auto report = learn_game(book, start_position(), moves, {60}, cheap_value);
    REQUIRE(report);
    CHECK(!book.contains(before_pass));
    CHECK(book.contains(after_pass));
    // The move into the pass takes the value of the position after it, with the mover's sign.
    const Position parent = (*positions)[static_cast<std::size_t>(pass - 1)];
    const BookChild child = book_child(parent, moves[static_cast<std::size_t>(pass - 1)]);
    CHECK(child.sign == 1);
    CHECK(child.position == after_pass);
    const auto parent_moves = book.moves(parent);
    const auto it = std::find_if(parent_moves.begin(), parent_moves.end(), [&](const BookMove& m) {
        return m.square == moves[static_cast<std::size_t>(pass - 1)];
    });
    REQUIRE(it != parent_moves.end());
    CHECK(it->value == *book.value(after_pass));
    check_negamaxed(book);
    // Without the pass in the move list (a transcript that leaves it out) the same book is learned.
    std::vector<Move> without = moves;
    without.erase(without.begin() + pass);
    Book implied;
    REQUIRE(learn_game(implied, start_position(), without, {60}, cheap_value));
    CHECK(encode_book(implied) == encode_book(book));
    // A pass counts no ply: with the limit just after the pass the position after it is still learned.
    const int plies_before = pass - static_cast<int>(std::count(moves.begin(), moves.begin() + pass, kPass));
    Book limited;
    REQUIRE(learn_game(limited, start_position(), moves, {plies_before + 1}, cheap_value));
    CHECK(limited.contains(after_pass));
    CHECK(!limited.contains((*positions)[static_cast<std::size_t>(pass + 2)]));
}

TEST_CASE("book learning refuses an illegal move naming it and leaves the book unchanged") {
    Book book;
    const auto bad = learn_game(book, start_position(), {Move{37}, Move{43}, Move{0}}, {20}, cheap_value);
    REQUIRE(!bad);
    CHECK_MESSAGE(bad.error().message.find("move 3 (a1)") != std::string::npos, bad.error().message);
    CHECK(book.empty());
    const auto late = random_game(5);
    std::vector<Move> broken(late.begin(), late.begin() + 30);
    broken.push_back(broken.back());  // an occupied square
    CHECK(!learn_game(book, start_position(), broken, {20}, cheap_value));
    CHECK(book.empty());
    const auto small = learn_game(book, start_position(Variant::Board6x6), {}, {20}, cheap_value);
    REQUIRE(!small);
    CHECK(small.error().message.find("8x8") != std::string::npos);
    CHECK(book.empty());
}

TEST_CASE("book learning stopped during a position keeps the positions searched before and not that one") {
    const auto moves = random_game(3);
    std::atomic<bool> stop{false};
    int calls = 0;
    const PositionEvaluator evaluate = [&](const Position& p) {
        if (++calls == 10) stop = true;  // inside the third position (4 + 3 + more moves)
        return cheap_value(p);
    };
    Book book;
    const auto report = learn_game(book, start_position(), moves, {20}, evaluate, &stop);
    REQUIRE(report);
    CHECK(report->stopped);
    const auto positions = game_positions(start_position(), moves);
    REQUIRE(positions);
    const int first_two = popcount((*positions)[0].moves()) + popcount((*positions)[1].moves());
    REQUIRE(first_two < 10);
    CHECK(report->added == 2);
    CHECK(book.contains((*positions)[1]));
    CHECK(!book.contains((*positions)[2]));
}

TEST_CASE("reversi-book learn reads GGF games and transcripts and skips bad games naming the move") {
    const std::filesystem::path tool = std::filesystem::path(REVERSI_BINARY_DIR) / "tools" / "reversi-book";
    if (!std::filesystem::exists(tool)) {
        MESSAGE("skipped: " << tool.string() << " is not built");
        return;
    }
    const auto ggf_game = random_game(21);
    const auto transcript_game = random_game(22);
    const std::string games = learn_temp("games.txt");
    const std::string book_path = learn_temp("learned.book");
    const std::string err = learn_temp("err.txt");
    std::filesystem::remove(book_path);
    {
        std::ofstream out(games);
        std::string first = ggf_line(ggf_game);
        first.insert(first.find(']') + 1, "PB[smiley ;)]");  // ";)" inside a value does not end the game
        out << first << "\n# a comment\n\n" << to_transcript(transcript_game) << "\n";
        out << "f5d6a1\n";  // line 5: an illegal third move; line 6: a GGF game whose white move is illegal
        out << "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[A8];)\n";
        out << "hello\n";  // line 7: no transcript
    }
    const std::string command =
        tool.string() + " learn --book " + book_path + " --games " + games + " --depth 2 --plies 6 --hash 4 2> " + err;
    REQUIRE(std::system(command.c_str()) == 0);
    const std::string log = file_text(err);
    CHECK_MESSAGE(log.find(games + ":5: move 3 (a1)") != std::string::npos, log);
    CHECK_MESSAGE(log.find(games + ":6 game 1: ") != std::string::npos, log);
    CHECK_MESSAGE(log.find(games + ":7: ") != std::string::npos, log);
    CHECK_MESSAGE(log.find("from 2 games (3 skipped)") != std::string::npos, log);
    auto learned = load_book_file(book_path);
    REQUIRE(learned);
    for (const auto* game : {&ggf_game, &transcript_game}) {
        const auto positions = game_positions(start_position(), *game);
        REQUIRE(positions);
        for (std::size_t i = 0; i < 6; ++i) CHECK(learned->contains((*positions)[i]));
        CHECK(!learned->contains((*positions)[6]));
    }
    const auto size = learned->size();
    REQUIRE(std::system(command.c_str()) == 0);  // again: nothing new
    CHECK(file_text(err).find(" (0 new) from 2 games") != std::string::npos);
    CHECK(load_book_file(book_path)->size() == size);
    const std::string missing = tool.string() + " learn --book " + book_path + " --games " + games + ".none 2> " + err;
    CHECK(std::system(missing.c_str()) != 0);
    CHECK(file_text(err).find("not a regular file") != std::string::npos);
    for (const auto& p : {games, book_path, err}) std::filesystem::remove(p);
}

TEST_CASE("reversi-book learn reads a WTHOR file (*.wtb) and refuses a damaged one") {
    const std::filesystem::path tool = std::filesystem::path(REVERSI_BINARY_DIR) / "tools" / "reversi-book";
    if (!std::filesystem::exists(tool)) {
        MESSAGE("skipped: " << tool.string() << " is not built");
        return;
    }
    data::WthorFile file;
    std::vector<std::vector<Move>> games;
    for (std::uint64_t seed : {31, 32}) {
        std::vector<Move> moves = random_game(seed);
        data::WthorGame g;
        for (const Move m : moves) {
            if (m != kPass) g.moves.push_back(m);  // WTHOR records no passes
        }
        g.black_score = 32;
        g.theoretical_black_score = 32;
        file.games.push_back(g);
        games.push_back(moves);
    }
    file.header.game_count = 2;
    const std::string wtb = learn_temp("games.wtb");
    const std::string book_path = learn_temp("wthor.book");
    const std::string err = learn_temp("wthor-err.txt");
    std::filesystem::remove(book_path);
    REQUIRE(data::write_wthor_file(wtb, file));
    const std::string command =
        tool.string() + " learn --book " + book_path + " --games " + wtb + " --depth 2 --plies 6 --hash 4 2> " + err;
    REQUIRE(std::system(command.c_str()) == 0);
    CHECK_MESSAGE(file_text(err).find("from 2 games (0 skipped)") != std::string::npos, file_text(err));
    auto learned = load_book_file(book_path);
    REQUIRE(learned);
    for (const auto& moves : games) {
        const auto positions = game_positions(start_position(), moves);
        REQUIRE(positions);
        for (std::size_t i = 0; i < 6; ++i) CHECK(learned->contains((*positions)[i]));
    }
    std::filesystem::resize_file(wtb, 20);  // a header and part of a record
    CHECK(std::system(command.c_str()) != 0);
    CHECK(file_text(err).find(wtb) != std::string::npos);
    for (const auto& p : {wtb, book_path, err}) std::filesystem::remove(p);
}

TEST_CASE("book learning skips positions a book file cannot hold, and the saved book reads back") {
    // Set up by hand (NBoard's set game takes any board): 2 discs; and 34 legal moves for X.
    const std::optional<Position> few = Position{square_bit(27), square_bit(28)};  // X d4, O e4, X to move
    const auto many = parse_board("--X------OXO-XO--XXX-XXX---------OOX-OOXXXX--XX--OX-OXO-----XX-- X");
    REQUIRE(few);
    REQUIRE(many);
    CHECK(popcount(many->moves()) == 34);
    CHECK_FALSE(Book::storable(*few));
    CHECK_FALSE(Book::storable(*many));
    CHECK(Book::storable(start_position()));
    Book book;
    REQUIRE(learn_game(book, start_position(), random_game(3), {6}, cheap_value));
    const std::size_t before = book.size();
    for (const Position& start : {*few, *many}) {
        const auto learned = learn_game(book, start, {}, {20}, cheap_value);
        REQUIRE(learned);
        CHECK(learned->added == 0);
    }
    CHECK_FALSE(book.set_moves(*many, {}));
    CHECK(book.size() == before);
    const std::string path = learn_temp("unstorable.book");
    REQUIRE(save_book_file(book, path));
    const auto back = load_book_file(path);
    REQUIRE_MESSAGE(back, back.error().message);  // before: "record N: move count 34 out of range"
    CHECK(back->size() == before);
}
