// The solver's transposition table: merging of bounds, moves, replacement, resize and clear.
#include <doctest/doctest.h>

#include "engine/endgame/endgame_tt.hpp"
#include "engine/endgame/selectivity.hpp"

using namespace reversi;
using endgame::EndgameTT;
using endgame::EndgameTTData;

TEST_CASE("the table merges bounds and keeps the previous best move second") {
    EndgameTT tt(1);
    EndgameTTData d;
    CHECK(!tt.probe(12345, 20, d));
    tt.store(12345, 20, -10, 64, 19, 1000);
    REQUIRE(tt.probe(12345, 20, d));
    CHECK(d.lower == -10);
    CHECK(d.upper == 64);
    CHECK(d.move == 19);
    CHECK(d.empties == 20);
    tt.store(12345, 20, -64, 4, 26, 10);
    REQUIRE(tt.probe(12345, 20, d));
    CHECK(d.lower == -10);
    CHECK(d.upper == 4);
    CHECK(d.move == 26);
    CHECK(d.second == 19);
    tt.store(12345, 20, 4, 4, kNoMove, 10);  // no move: the known ones stay
    REQUIRE(tt.probe(12345, 20, d));
    CHECK(d.lower == 4);
    CHECK(d.upper == 4);
    CHECK(d.move == 26);
    // Negative bounds survive the int8 packing.
    tt.store(777, 9, -64, -64, 0, 1);
    REQUIRE(tt.probe(777, 9, d));
    CHECK(d.lower == -64);
    CHECK(d.upper == -64);
    CHECK(d.move == 0);
}

TEST_CASE("replacement keeps the entries of the bucket's other positions until it is full") {
    EndgameTT tt(1);
    const std::uint64_t buckets = 1024 * 1024 / 64;
    // Five keys on the same bucket: four fit, the fifth replaces the cheapest.
    for (std::uint64_t k = 1; k <= 4; ++k) tt.store(k * buckets + 7, static_cast<int>(10 + k), 0, 0, 1, 1000);
    EndgameTTData d;
    for (std::uint64_t k = 1; k <= 4; ++k) CHECK(tt.probe(k * buckets + 7, static_cast<int>(10 + k), d));
    tt.store(5 * buckets + 7, 30, 2, 2, 3, 1000000);
    CHECK(tt.probe(5 * buckets + 7, 30, d));
    CHECK(!tt.probe(1 * buckets + 7, 11, d));  // 11 empties: the cheapest
    CHECK(tt.probe(4 * buckets + 7, 14, d));
}

TEST_CASE("near positions share the table's first kNearMiB, far ones spread over all of it") {
    constexpr std::size_t kMiB = 4 * EndgameTT::kNearMiB;
    EndgameTT tt(kMiB);
    const std::uint64_t near_buckets = EndgameTT::kNearMiB * 1024 * 1024 / 64;
    const int near = EndgameTT::kNearEmpties - 1;
    const int far = EndgameTT::kNearEmpties;
    // Five keys that differ only above the near part's bits: near, they meet in one bucket of 4 entries,
    // and the fifth (more empties, more nodes) replaces the cheapest.
    for (std::uint64_t k = 1; k <= 5; ++k)
        tt.store(k * near_buckets + 7, near - 5 + static_cast<int>(k), 0, 0, 1, 1000);
    EndgameTTData d;
    CHECK(!tt.probe(1 * near_buckets + 7, near - 4, d));
    for (std::uint64_t k = 2; k <= 5; ++k) CHECK(tt.probe(k * near_buckets + 7, near - 5 + static_cast<int>(k), d));
    // Far, the same five keys lie in four buckets (1 and 5, 2, 3, and 4 wrapped to 0 in 4 x 8 MiB): all stay.
    EndgameTT spread(kMiB);
    for (std::uint64_t k = 1; k <= 5; ++k) spread.store(k * near_buckets + 7, far + static_cast<int>(k), 0, 0, 1, 1000);
    for (std::uint64_t k = 1; k <= 5; ++k) CHECK(spread.probe(k * near_buckets + 7, far + static_cast<int>(k), d));
    // A position is found only with its own empties count's part (the count is the position's own).
    CHECK(!spread.probe(2 * near_buckets + 7, near, d));
}

TEST_CASE("resize and clear empty the table") {
    EndgameTT tt(1);
    tt.store(99, 20, 0, 0, 5, 1);
    EndgameTTData d;
    CHECK(tt.probe(99, 20, d));
    tt.clear();
    CHECK(!tt.probe(99, 20, d));
    tt.store(99, 20, 0, 0, 5, 1);
    REQUIRE(tt.resize(2));
    CHECK(tt.size_mib() == 2);
    CHECK(!tt.probe(99, 20, d));
    CHECK(tt.hashfull() == 0);
}

TEST_CASE("a selective bound never cuts a less selective search, and a more exact store replaces it") {
    EndgameTT tt(1);
    EndgameTTData d;
    // A level-2 (selective) bound.
    tt.store(4242, 22, 10, 64, 19, 1000, 2);
    REQUIRE(tt.probe(4242, 22, d));
    CHECK(d.selectivity_level == 2);
    CHECK(d.lower == 10);
    CHECK(!d.usable(0));  // never in the exact pass
    CHECK(!d.usable(1));
    CHECK(d.usable(2));
    CHECK(d.usable(3));
    // Same level: merged.
    tt.store(4242, 22, -64, 20, 26, 1000, 2);
    REQUIRE(tt.probe(4242, 22, d));
    CHECK(d.lower == 10);
    CHECK(d.upper == 20);
    CHECK(d.selectivity_level == 2);
    // An exact store replaces the selective bounds (no merge with them) and keeps the moves for ordering.
    tt.store(4242, 22, -64, 4, kNoMove, 1000, 0);
    REQUIRE(tt.probe(4242, 22, d));
    CHECK(d.selectivity_level == 0);
    CHECK(d.lower == -64);
    CHECK(d.upper == 4);
    CHECK(d.move == 26);
    CHECK(d.usable(0));
    CHECK(d.usable(4));
    // A selective store over an exact entry keeps the exact bounds, takes the new move.
    tt.store(4242, 22, 30, 64, 37, 1000, 4);
    REQUIRE(tt.probe(4242, 22, d));
    CHECK(d.selectivity_level == 0);
    CHECK(d.lower == -64);
    CHECK(d.upper == 4);
    CHECK(d.move == 37);
    CHECK(d.second == 26);
    // Every level survives the packing, with negative bounds.
    for (int level = 0; level <= endgame::kMaxSelectivityLevel; ++level) {
        const std::uint64_t key = 9000 + static_cast<std::uint64_t>(level);
        tt.store(key, 30, -64, -12, 5, 1, level);
        REQUIRE(tt.probe(key, 30, d));
        CHECK(d.selectivity_level == level);
        CHECK(d.lower == -64);
        CHECK(d.upper == -12);
        CHECK(d.empties == 30);
    }
}
