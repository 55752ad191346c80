#include <doctest/doctest.h>

#include <random>
#include <unordered_set>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;

TEST_CASE("standard start: four moves for black, d3 c4 f5 e6") {
    const Position pos = start_position();
    CHECK(pos.side == Color::Black);
    CHECK(pos.moves() == (square_bit(19) | square_bit(26) | square_bit(37) | square_bit(44)));
    CHECK(popcount(pos.black()) == 2);
    CHECK(popcount(pos.white()) == 2);
    CHECK_FALSE(pos.is_over());
}

TEST_CASE("every variant starts with four discs inside its board, black to move") {
    for (const auto& info : all_variants()) {
        CAPTURE(info.name);
        const Position pos = start_position(info.id);
        CHECK(popcount(pos.player | pos.opponent) == 4);
        CHECK(((pos.player | pos.opponent) & ~pos.playable) == 0);
        CHECK(pos.moves() != 0);
    }
    CHECK(popcount(variant_info(Variant::Board6x6).playable) == 36);
    CHECK(popcount(variant_info(Variant::Board4x4).playable) == 16);
    CHECK(popcount(variant_info(Variant::Diamond).playable) == 24);
}

TEST_CASE("final score: World Othello Federation rule and plain disc difference") {
    // Black 3 discs, white 1, 60 empties, nobody can move (no adjacency).
    auto pos = parse_board("X-X-X-------------------------------------------------------O--- X");
    REQUIRE(pos);
    CHECK(pos->is_over());
    CHECK(pos->final_score() == 3 - 1 + 60);
    CHECK(pos->pass().final_score() == -(3 - 1 + 60));
    Position diff = *pos;
    diff.rule = ScoreRule::DiscDifference;
    CHECK(diff.final_score() == 2);
    auto draw = parse_board("X-------------------------------------------------------------O- O");
    REQUIRE(draw);
    CHECK(draw->final_score() == 0);
}

TEST_CASE("apply_move rejects bad moves and leaves the position as it was") {
    const Position start = start_position();
    const Position copy = start;
    auto occupied = apply_move(start, static_cast<Move>(make_square(3, 3)));
    REQUIRE_FALSE(occupied);
    CHECK(occupied.error().message.find("occupied") != std::string::npos);
    auto illegal = apply_move(start, static_cast<Move>(0));
    REQUIRE_FALSE(illegal);
    CHECK(illegal.error().message.find("a1") != std::string::npos);
    auto pass = apply_move(start, kPass);
    REQUIRE_FALSE(pass);
    CHECK(pass.error().message.find("pass") != std::string::npos);
    CHECK(start == copy);

    const Position small = start_position(Variant::Board4x4);
    auto off = apply_move(small, static_cast<Move>(0));
    REQUIRE_FALSE(off);
    CHECK(off.error().message.find("not on the 4x4 board") != std::string::npos);

    auto ok = apply_move(start, static_cast<Move>(make_square(5, 4)));  // f5
    REQUIRE(ok);
    CHECK(popcount(ok->black()) == 4);
    CHECK(ok->side == Color::White);
}

TEST_CASE("a forced pass and a finished game") {
    // White to move has no move; black has one. Then after black's move nobody can move.
    auto pos = parse_board(
        "XO------"
        "--------"
        "--------"
        "--------"
        "--------"
        "--------"
        "--------"
        "-------- O");
    REQUIRE(pos);
    CHECK(pos->moves() == 0);
    CHECK(pos->must_pass());
    auto passed = apply_move(*pos, kPass);
    REQUIRE(passed);
    CHECK(passed->moves() == square_bit(2));
    auto end = apply_move(*passed, static_cast<Move>(2));
    REQUIRE(end);
    CHECK(end->is_over());
    auto after_end = apply_move(*end, kPass);
    REQUIRE_FALSE(after_end);
    CHECK(after_end.error().message.find("game is over") != std::string::npos);
}

TEST_CASE("hash keys: no collision among 1,000,000 distinct random positions") {
    std::unordered_set<std::uint64_t> keys;
    std::unordered_set<Position, decltype([](const Position& p) {
                           return std::hash<std::uint64_t>{}(p.player ^ (p.opponent * 31));
                       })>
        seen;
    int distinct = 0;
    for (std::uint64_t seed = 1; distinct < 1000000; ++seed) {
        for (const auto& pos : testing::random_positions(Variant::Standard, 60000, seed)) {
            if (!seen.insert(Position{pos.player, pos.opponent}).second) continue;
            ++distinct;
            CHECK(keys.insert(pos.hash()).second);
        }
    }
    CHECK(keys.size() == seen.size());
    // The low bits (bucket index) spread well: 1M keys over 2^16 buckets, none wildly overfull.
    std::vector<int> buckets(1 << 16, 0);
    for (auto k : keys) ++buckets[k & 0xffff];
    int fullest = 0;
    for (int b : buckets) fullest = std::max(fullest, b);
    CHECK(fullest < 50);  // mean 15.3
}
