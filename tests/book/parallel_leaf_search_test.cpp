// Parallel leaf searches for `reversi-book build`: the values equal one searcher's from a cleared table,
// the batch form of move_values equals the single one, and a book grown with several jobs is the book
// grown with one.
#include <doctest/doctest.h>

#include <random>

#include "book_checks.hpp"
#include "engine/board/notation.hpp"
#include "engine/book/deviation.hpp"
#include "engine/book/leaf_search.hpp"

using namespace reversi;
using namespace reversi::book;

namespace parallel_leaf_test {

// Positions 10-30 plies into random games (none over).
std::vector<Position> random_positions(std::size_t count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Position> out;
    while (out.size() < count) {
        Position pos = start_position();
        const int plies = 10 + static_cast<int>(rng() % 21);
        for (int i = 0; i < plies && !pos.is_over(); ++i) {
            if (pos.must_pass()) pos = pos.pass();
            std::vector<int> moves;
            for (const int sq : squares(pos.moves())) moves.push_back(sq);
            pos = pos.play_move(static_cast<Move>(moves[rng() % moves.size()]));
        }
        if (!pos.is_over() && !pos.must_pass()) out.push_back(pos);
    }
    return out;
}

std::vector<std::pair<BookKey, std::vector<BookMove>>> contents(const Book& book) {
    std::vector<std::pair<BookKey, std::vector<BookMove>>> out;
    for (const auto& [key, node] : book.nodes()) out.emplace_back(key, node.moves);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.first.player != b.first.player ? a.first.player < b.first.player : a.first.opponent < b.first.opponent;
    });
    return out;
}

}  // namespace parallel_leaf_test

using namespace parallel_leaf_test;

TEST_CASE("parallel leaf searches give each position one searcher's value from a cleared table") {
    const std::atomic<bool> never{false};
    const LeafSearch leaf{5, 20};
    const auto positions = random_positions(24, 3);
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
    const Book book = testing::toy_book(4, 2);
    int calls = 0;
    const BatchEvaluator batch = [&calls](const std::vector<Position>& positions) {
        ++calls;
        std::vector<int> v;
        for (const Position& p : positions) v.push_back(testing::toy_evaluation(p));
        return v;
    };
    for (const Position& pos : random_positions(30, 5)) {
        std::size_t single_count = 0, batch_count = 0;
        const int before = calls;
        const auto single = move_values(book, pos, testing::toy_evaluation, single_count);
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
    const BatchEvaluator by_one = [&one](const std::vector<Position>& p) { return one(p); };
    const BatchEvaluator by_three = [&three](const std::vector<Position>& p) { return three(p); };
    Book a, b;
    const auto ra = grow_by_deviation(a, start_position(), {5, 2, 0}, by_one);
    const auto rb = grow_by_deviation(b, start_position(), {5, 2, 0}, by_three);
    CHECK(ra.added > 3);
    CHECK(ra.added == rb.added);
    CHECK(ra.evaluations == rb.evaluations);
    CHECK(contents(a) == contents(b));
    testing::check_move_values(b);
}
