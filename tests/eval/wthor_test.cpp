// The WTHOR reader: synthetic files with known content, damaged files, and the shared database.
#include <doctest/doctest.h>

#include <filesystem>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/data/wthor.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::data;

namespace {

// A file with the given games (move transcripts), black scores as given.
std::vector<std::uint8_t> make_wthor(const std::vector<std::pair<std::string, int>>& games) {
    std::vector<std::uint8_t> bytes = {20, 24, 11, 21};
    const auto n = static_cast<std::uint32_t>(games.size());
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
    bytes.insert(bytes.end(), {0, 0, 0xe8, 0x07, 8, 0, 24, 0});  // N2 = 0, year 2024, 8x8, normal, depth 24
    for (const auto& [text, score] : games) {
        const auto moves = parse_transcript(text);
        REQUIRE(moves);
        bytes.insert(bytes.end(), {3, 0, 4, 0, 5, 0});
        bytes.push_back(static_cast<std::uint8_t>(score));
        bytes.push_back(static_cast<std::uint8_t>(score + 1));
        for (int m = 0; m < 60; ++m) {
            bytes.push_back(m < static_cast<int>(moves->size())
                                ? static_cast<std::uint8_t>(10 * (row_of((*moves)[m]) + 1) + column_of((*moves)[m]) + 1)
                                : 0);
        }
    }
    return bytes;
}

}  // namespace

TEST_CASE("WTHOR: a synthetic file is read field by field and its games replay") {
    const auto bytes = make_wthor({{"f5d6c3d3c4", 30}, {"f5f6e6f4", 40}});
    auto file = parse_wthor(bytes, "synthetic");
    REQUIRE_MESSAGE(file, (file ? "" : file.error().message));
    CHECK(file->header.created_year == 2024);
    CHECK(file->header.games_year == 2024);
    CHECK(file->header.theory_depth == 24);
    REQUIRE(file->games.size() == 2);
    const auto& g = file->games[0];
    CHECK(g.tournament == 3);
    CHECK(g.black_player == 4);
    CHECK(g.white_player == 5);
    CHECK(g.black_score == 30);
    CHECK(g.theoretical_black_score == 31);
    REQUIRE(g.moves.size() == 5);
    CHECK(move_to_string(g.moves[0]) == "f5");
    auto replay = replay_game(g);
    REQUIRE(replay);
    CHECK(replay->before_move.size() == 5);
    CHECK(replay->before_move[0] == start_position());
    CHECK_FALSE(replay->finished());
    CHECK(replay->last == *play_transcript(start_position(), "f5d6c3d3c4"));
}

TEST_CASE("WTHOR: damaged files are errors that say what is wrong") {
    const auto bytes = make_wthor({{"f5d6", 30}});
    auto short_header = parse_wthor(std::span(bytes.data(), 10), "x");
    REQUIRE_FALSE(short_header);
    CHECK(short_header.error().message.find("truncated") != std::string::npos);
    auto cut = parse_wthor(std::span(bytes.data(), bytes.size() - 1), "x");
    REQUIRE_FALSE(cut);
    CHECK(cut.error().message.find("truncated") != std::string::npos);
    auto longer = bytes;
    longer.push_back(0);
    CHECK_FALSE(parse_wthor(longer, "x"));
    auto bad_square = bytes;
    bad_square[16 + 8] = 19;  // column 9
    auto r = parse_wthor(bad_square, "x");
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("not a square") != std::string::npos);
    auto board10 = bytes;
    board10[12] = 10;
    CHECK_FALSE(parse_wthor(board10, "x"));
    // A legal square that is an illegal move: a1 as the first move.
    auto illegal = bytes;
    illegal[16 + 8] = 11;
    auto file = parse_wthor(illegal, "x");
    REQUIRE(file);
    auto replay = replay_game(file->games[0]);
    REQUIRE_FALSE(replay);
    CHECK(replay.error().message.find("move 1 (a1) is illegal") != std::string::npos);
    CHECK_FALSE(read_wthor_file("/nonexistent/WTH_0000.wtb"));
}

TEST_CASE("WTHOR: the shared 1977-1985 files replay and finished games match their recorded score") {
    const std::string dir = testing::shared_data_dir();
    if (dir.empty()) {
        MESSAGE("skipped: ../shared/data is absent");
        return;
    }
    const std::vector<std::pair<int, std::size_t>> expected = {{1977, 12},  {1978, 8},   {1979, 11},
                                                               {1980, 160}, {1981, 153}, {1982, 110},
                                                               {1983, 199}, {1984, 587}, {1985, 954}};
    for (const auto& [year, count] : expected) {
        const std::string path = dir + "/wthor/WTH_" + std::to_string(year) + ".wtb";
        if (!std::filesystem::exists(path)) {
            MESSAGE("skipped: " << path << " is absent");
            continue;
        }
        auto file = read_wthor_file(path);
        REQUIRE_MESSAGE(file, (file ? "" : file.error().message));
        CHECK(file->games.size() == count);
        CHECK(file->header.theory_depth == 24);
        for (const auto& game : file->games) {
            auto replay = replay_game(game);
            REQUIRE_MESSAGE(replay, (replay ? "" : replay.error().message));
            if (replay->finished()) {
                const Position& last = replay->last;
                const int black = last.side == Color::Black ? last.final_score() : -last.final_score();
                CHECK(black == 2 * game.black_score - 64);
            }
        }
    }
}
