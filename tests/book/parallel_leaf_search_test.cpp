// Parallel leaf searches for `reversi-book build`: the values equal one searcher's from a cleared table,
// the batch form of move_values equals the single one, and a book grown with several jobs is the book
// grown with one.
#include <doctest/doctest.h>

#include "book_checks.hpp"
#include "engine/board/notation.hpp"
#include "engine/book/book_file.hpp"
#include "engine/book/deviation.hpp"
#include "engine/book/leaf_search.hpp"
#include "tests/support/random_positions.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;
using namespace reversi::book;

namespace {

// Positions with a legal move from seeded random games, those with a multiple of 3 discs (a third of them).
std::vector<Position> positions_to_value(std::size_t count, std::uint64_t seed) {
    std::vector<Position> out;
    for (const Position& pos :
         reversi::testing::random_positions(Variant::Standard, static_cast<int>(count) * 4, seed)) {
        if (pos.moves() != 0 && out.size() < count && popcount(pos.player | pos.opponent) % 3 == 0) out.push_back(pos);
    }
    REQUIRE(out.size() == count);
    return out;
}

}  // namespace

TEST_CASE("parallel leaf searches give each position one searcher's value from a cleared table") {
    const std::atomic<bool> never{false};
    const LeafSearch leaf{5, 20};
    const auto positions = positions_to_value(reversi::testing::sanitized_count(24, 9), 3);
    ParallelLeafSearch three(3, 1, 4, leaf, never);
    CHECK(three.jobs() == 3);
    const auto values = three(positions);
    REQUIRE(values.size() == positions.size());
    Searcher reference(4);
    use_engine_search_options(reference, 1);
    const auto search = searched_evaluator(reference, leaf, never);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        reference.clear();
        CHECK_MESSAGE(values[i] == search(positions[i]), "position ", i);
    }
    CHECK(three(positions) == values);  // the same again, whichever job takes which position
    CHECK(three({}).empty());
}

TEST_CASE("move_values: the batch form gives the single form's values and evaluation count") {
    const Book book = book::testing::toy_book(4, 2);
    int calls = 0;
    const BatchEvaluator batch = [&calls](const std::vector<Position>& positions) {
        ++calls;
        std::vector<int> v;
        for (const Position& p : positions) v.push_back(book::testing::toy_evaluation(p));
        return v;
    };
    for (const Position& pos : positions_to_value(30, 5)) {
        std::size_t single_count = 0, batch_count = 0;
        const int before = calls;
        const auto single = move_values(book, pos, book::testing::toy_evaluation, single_count);
        const auto batched = move_values(book, pos, batch, batch_count);
        CHECK(batched == single);
        CHECK(batch_count == single_count);
        CHECK(calls - before == (single_count > 0 ? 1 : 0));  // one call for all the moves of a position
    }
}

TEST_CASE("a book grown with three parallel jobs is the book grown with one") {
    const std::atomic<bool> never{false};
    const LeafSearch leaf{4, 20};
    ParallelLeafSearch one(1, 1, 4, leaf, never);
    ParallelLeafSearch three(3, 1, 4, leaf, never);
    const BatchEvaluator by_one = std::ref(one);
    const BatchEvaluator by_three = std::ref(three);
    Book a, b;
    const auto ra = grow_by_deviation(a, start_position(), {5, 2, 0}, by_one);
    const auto rb = grow_by_deviation(b, start_position(), {5, 2, 0}, by_three);
    CHECK(ra.added > 3);
    CHECK(ra.added == rb.added);
    CHECK(ra.evaluations == rb.evaluations);
    CHECK(encode_book(a) == encode_book(b));
    book::testing::check_move_values(b);
}
