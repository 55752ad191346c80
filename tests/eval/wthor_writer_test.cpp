// The WTHOR writer: what it writes reads back field by field, byte-identical to a hand-made file,
// and what the reader would refuse is refused.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>

#include "engine/board/random_move.hpp"
#include "engine/board/variant.hpp"
#include "engine/data/wthor.hpp"
#include "engine/data/wthor_writer.hpp"
#include "tests/support/game_records.hpp"

using namespace reversi;
using namespace reversi::data;

namespace {

WthorGame random_game(std::mt19937_64& rng) {
    WthorGame game = testing::play_recorded_game([&rng](const Position& pos) { return random_legal_move(pos, rng); });
    game.theoretical_black_score = static_cast<int>(rng() % 65);
    game.tournament = static_cast<std::uint16_t>(rng());
    game.black_player = static_cast<std::uint16_t>(rng());
    game.white_player = static_cast<std::uint16_t>(rng());
    return game;
}

}  // namespace

TEST_CASE("WTHOR writer: 300 random games read back field by field and replay to their score") {
    std::mt19937_64 rng(99);
    WthorFile file;
    file.header = WthorHeader{2026, 11, 21, 0, 2026, 8, 0, 20};
    for (int i = 0; i < 300; ++i) file.games.push_back(random_game(rng));
    auto bytes = serialize_wthor(file);
    REQUIRE(bytes);
    CHECK(bytes->size() == kWthorHeaderSize + kWthorGameSize * 300);
    auto back = parse_wthor(*bytes, "written");
    REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
    CHECK(back->header.game_count == 300);
    CHECK(back->header.games_year == 2026);
    CHECK(back->header.created_year == 2026);
    CHECK(back->header.created_month == 11);
    CHECK(back->header.theory_depth == 20);
    for (std::size_t g = 0; g < 300; ++g) {
        const auto& a = file.games[g];
        const auto& b = back->games[g];
        CAPTURE(g);
        CHECK(a.moves == b.moves);
        CHECK(a.black_score == b.black_score);
        CHECK(a.theoretical_black_score == b.theoretical_black_score);
        CHECK(a.tournament == b.tournament);
        CHECK(a.black_player == b.black_player);
        CHECK(a.white_player == b.white_player);
        auto replayed = replay_game(b);
        REQUIRE(replayed);
        REQUIRE(replayed->finished());
        const Position& last = replayed->last;
        CHECK((last.side == Color::Black ? last.final_score() : -last.final_score()) == 2 * b.black_score - 64);
    }
    // Through a file, and the shared reader.
    const auto path = (std::filesystem::temp_directory_path() / "reversi-wthor-writer-test.wtb").string();
    REQUIRE(write_wthor_file(path, file));
    auto read = read_wthor_file(path);
    REQUIRE(read);
    CHECK(read->games.size() == 300);
    std::filesystem::remove(path);
}

TEST_CASE("WTHOR writer: a square is coded 10 * row + column, a1 = 11, h8 = 88") {
    WthorFile file;
    file.header.theory_depth = 24;
    file.games.push_back(WthorGame{1, 2, 3, 40, 41, {0, 63, 5}});  // a1, h8, f1
    auto bytes = serialize_wthor(file);
    REQUIRE(bytes);
    const std::uint8_t* r = bytes->data() + kWthorHeaderSize;
    CHECK(r[0] == 1);
    CHECK(r[2] == 2);
    CHECK(r[4] == 3);
    CHECK(r[6] == 40);
    CHECK(r[7] == 41);
    CHECK(r[8] == 11);
    CHECK(r[9] == 88);
    CHECK(r[10] == 16);
    CHECK(r[11] == 0);
}

TEST_CASE("WTHOR writer: what the reader would refuse is an error") {
    WthorFile file;
    file.games.push_back(WthorGame{});
    file.games[0].moves = {kPass};
    CHECK_FALSE(serialize_wthor(file));
    file.games[0].moves = {};
    file.games[0].black_score = 65;
    CHECK_FALSE(serialize_wthor(file));
    file.games[0].black_score = 32;
    file.games[0].moves.assign(61, 0);
    CHECK_FALSE(serialize_wthor(file));
    file.games[0].moves = {};
    file.header.theory_depth = 61;
    CHECK_FALSE(serialize_wthor(file));
    file.header.theory_depth = 20;
    CHECK(serialize_wthor(file));
    CHECK_FALSE(write_wthor_file("/nonexistent-dir/x.wtb", file));
}
