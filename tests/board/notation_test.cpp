#include <doctest/doctest.h>

#include <filesystem>

#include "engine/board/notation.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;

TEST_CASE("squares and passes") {
    CHECK(*parse_move("a1") == 0);
    CHECK(*parse_move("H8") == 63);
    CHECK(*parse_move("c4") == make_square(2, 3));
    for (const char* pass : {"pass", "PASS", "PA", "pa", "ps", "@@", "@@@@", "--"}) {
        CAPTURE(pass);
        CHECK(*parse_move(pass) == kPass);
    }
    for (const char* bad : {"", "i1", "a9", "a0", "a", "a11", "xx", "\xff\x01"}) {
        CAPTURE(bad);
        auto m = parse_move(bad);
        REQUIRE_FALSE(m);
        CHECK(m.error().message.find("bad move") != std::string::npos);
    }
    CHECK(move_to_string(0) == "a1");
    CHECK(move_to_string(63) == "h8");
    CHECK(move_to_string(kPass) == "pass");
    CHECK(move_to_string(kNoMove) == "none");
}

TEST_CASE("board strings: round trip and every accepted character") {
    const std::string start = "---------------------------OX------XO--------------------------- X";
    auto pos = parse_board(start);
    REQUIRE(pos);
    CHECK(*pos == start_position());
    CHECK(to_board_string(*pos) == start);
    auto alt = parse_board("........ ........ ........ ...wb... ...bw... ........ ........ ........ b");
    REQUIRE(alt);
    CHECK(*alt == start_position());
    auto star = parse_board("---------------------------O*------*O--------------------------- *");
    REQUIRE(star);
    CHECK(*star == start_position());
    for (const auto& p : testing::random_positions(Variant::Standard, 2000, 7)) {
        auto back = parse_board(to_board_string(p));
        REQUIRE(back);
        CHECK(*back == p);
    }
}

TEST_CASE("board strings: errors say what is wrong") {
    auto short_board = parse_board("XO X");
    REQUIRE_FALSE(short_board);
    CHECK(short_board.error().message.find("64 squares") != std::string::npos);
    auto bad_char = parse_board("---------------------------OZ------XO--------------------------- X");
    REQUIRE_FALSE(bad_char);
    CHECK(bad_char.error().message.find("'Z' at e4") != std::string::npos);
    auto bad_side = parse_board("---------------------------OX------XO--------------------------- -");
    REQUIRE_FALSE(bad_side);
    CHECK(bad_side.error().message.find("side to move") != std::string::npos);
    auto off_board =
        parse_board("X--------------------------OX------XO--------------------------- X", Variant::Board6x6);
    REQUIRE_FALSE(off_board);
    CHECK(off_board.error().message.find("outside the 6x6 board") != std::string::npos);
}

TEST_CASE("transcripts") {
    auto moves = parse_transcript("f5d6C3d3");
    REQUIRE(moves);
    CHECK(moves->size() == 4);
    CHECK(to_transcript(*moves) == "f5d6c3d3");
    auto spaced = parse_transcript("f5 d6, c3");
    REQUIRE(spaced);
    CHECK(spaced->size() == 3);
    auto pos = play_transcript(start_position(), "f5d6c3d3c4");
    REQUIRE(pos);
    CHECK(pos->side == Color::White);
    CHECK(popcount(pos->player | pos->opponent) == 9);

    auto illegal = play_transcript(start_position(), "f5d6a1");
    REQUIRE_FALSE(illegal);
    CHECK(illegal.error().message.find("move 3 (a1)") != std::string::npos);
    auto garbage = play_transcript(start_position(), "f5zz");
    REQUIRE_FALSE(garbage);
    CHECK(garbage.error().message.find("move 2") != std::string::npos);
    auto bad_pass = play_transcript(start_position(), "pass");
    REQUIRE_FALSE(bad_pass);
    CHECK(bad_pass.error().message.find("has a legal move") != std::string::npos);
}

TEST_CASE("OBF lines") {
    auto entry = parse_obf_line(
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:-4; % #40");
    REQUIRE(entry);
    CHECK(entry->position.side == Color::Black);
    REQUIRE(entry->move_scores.size() == 3);
    CHECK(entry->move_scores[0] == std::pair<Move, int>{8, 38});
    CHECK(entry->move_scores[2].second == -4);
    CHECK(*entry->best_score() == 38);
    CHECK(entry->comment == "#40");

    auto single = parse_obf_line("---------------------------OX------XO--------------------------- X; +0;");
    REQUIRE(single);
    CHECK(*single->best_score() == 0);
    auto terminated =
        parse_obf_line("---------------------------OX------XO--------------------------- X; D3:+0; --:-127;");
    REQUIRE(terminated);
    CHECK(terminated->move_scores.size() == 1);

    CHECK_FALSE(parse_obf_line("XO X; A1:+1;"));
    CHECK_FALSE(parse_obf_line("---------------------------OX------XO--------------------------- X; Z9:+1;"));
    CHECK_FALSE(parse_obf_line("---------------------------OX------XO--------------------------- X; D3:+x;"));
    CHECK_FALSE(parse_obf_line("   % only a comment"));
    // A score beyond -64..64, or a score for a move that is not legal, is an error of the file (they
    // used to be read: a measure took 100 as an exact score, a solve called the position wrong).
    const std::string start = "---------------------------OX------XO--------------------------- X;";
    for (const char* bad : {" D3:+100;", " D3:-65;", " +66;", " A1:+18;", " --:+0;", " D3:+0; D3:-127;"}) {
        const auto refused = parse_obf_line(start + bad);
        CHECK_MESSAGE(!refused, bad);
    }
    CHECK(parse_obf_line(start + " D3:+64; C4:-64; --:-127;"));
}

TEST_CASE("OBF files from the shared FFO suite: every listed move is exactly the legal moves") {
    const std::string dir = testing::shared_data_dir();
    if (dir.empty()) {
        MESSAGE("skipped: ../shared/data is absent");
        return;
    }
    int count = 0;
    for (const char* name : {"fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf", "fforum-60-79.obf"}) {
        auto entries = read_obf_file(dir + "/ffo/" + name);
        REQUIRE_MESSAGE(entries, (entries ? "" : entries.error().message));
        for (const auto& e : *entries) {
            Bitboard listed = 0;
            for (const auto& [m, s] : e.move_scores) listed |= square_bit(m);
            CHECK(listed == e.position.moves());
            ++count;
        }
    }
    CHECK(count == 79);
    auto missing = read_obf_file(dir + "/ffo/no-such-file.obf");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("cannot open") != std::string::npos);
}

TEST_CASE("read_obf_file refuses what is not a regular file: a folder reads as empty, /dev/zero never ends") {
    for (const std::string& path : {std::filesystem::temp_directory_path().string(), std::string("/dev/zero")}) {
        CAPTURE(path);
        const auto entries = read_obf_file(path);
        REQUIRE_FALSE(entries);
        CHECK(entries.error().message.find("not a regular file") != std::string::npos);
    }
}
