// The Searcher's worker pool: Threads sizes it, searches at two threads reuse it (no thread per search or
// per split) and give the one-thread exact scores, the dedicated solve's splits included.
#include <doctest/doctest.h>

#include <atomic>

#include "engine/board/notation.hpp"
#include "engine/core/worker_pool.hpp"
#include "engine/search/searcher.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/search/search_helpers.hpp"
#include "tests/support/random_positions.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;
using namespace reversi::testing;

namespace {

SearchOptions with_threads(int threads) {
    SearchOptions o;
    o.threads = threads;
    return o;
}

}  // namespace

TEST_CASE("Searcher worker pool: Threads resizes it and a search creates no thread") {
    Searcher searcher(1);
    CHECK(searcher.worker_pool().size() == 0);
    CHECK(searcher.worker_pool().threads_created() == 0);
    searcher.set_options(with_threads(4));
    CHECK(searcher.worker_pool().size() == 3);
    CHECK(searcher.worker_pool().threads_created() == 3);
    searcher.set_options(with_threads(2));
    CHECK(searcher.worker_pool().size() == 1);
    CHECK(searcher.worker_pool().threads_created() == 3);
    searcher.set_options(with_threads(1));
    CHECK(searcher.worker_pool().size() == 0);
    searcher.set_options(with_threads(2));
    CHECK(searcher.worker_pool().threads_created() == 4);
    const std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.depth = 4;
    const auto r = searcher.search(start_position(), limits, {}, stop);
    CHECK(is_legal(start_position(), r.best_move));
    CHECK(searcher.worker_pool().threads_created() == 4);
    // set_threads: the same resize, and no other option changes.
    SearchOptions other = with_threads(1);
    other.selectivity = 73;
    other.multipv = 3;
    searcher.set_options(other);
    searcher.set_threads(3);
    CHECK(searcher.worker_pool().size() == 2);
    CHECK(searcher.options().threads == 3);
    CHECK(searcher.options().selectivity == 73);
    CHECK(searcher.options().multipv == 3);
    searcher.set_threads(0);  // clamped to 1
    CHECK(searcher.worker_pool().size() == 0);
    CHECK(searcher.options().threads == 1);
}

TEST_CASE("Searcher two threads: solves give the one-thread exact scores (midgame helpers, then YBWC splits)") {
    Searcher one(8);
    Searcher two(8);
    one.set_options(with_threads(1));
    two.set_options(with_threads(2));
    const std::atomic<bool> stop{false};
    // 19 empties: the midgame iterations run the lazy-SMP helpers, then the solve splits the root and the
    // PV nodes with 18 and more empties (SolveOptions::split_empties) on the same pool.
    for (const auto& pos : endgame_test::positions_with_empties(19, reversi::testing::sanitized_count(3, 2), 1616)) {
        CAPTURE(to_board_string(pos));
        SearchLimits limits;
        limits.solve = true;
        const auto a = one.search(pos, limits, {}, stop);
        const auto b = two.search(pos, limits, {}, stop);
        CHECK(a.exact);
        CHECK(b.exact);
        CHECK(a.score == b.score);
        CHECK(is_legal(pos, b.best_move));
        SearchLimits wld;
        wld.wld = true;
        const auto w = two.search(pos, wld, {}, stop);
        CHECK(w.score == (a.score > 0) - (a.score < 0));
    }
    CHECK(two.worker_pool().threads_created() == 1);
}

TEST_CASE("Searcher two threads: 50 consecutive searches give legal moves and create no thread") {
    Searcher searcher(4);
    searcher.set_options(with_threads(2));
    const std::uint64_t created = searcher.worker_pool().threads_created();
    CHECK(created == 1);
    const std::atomic<bool> stop{false};
    const auto midgame = random_positions(Variant::Standard, 40, 7);
    const auto endgame = endgame_test::positions_with_empties(16, 20, 1717);
    int searches = 0;
    for (int i = 0; i < 50; ++i) {
        searcher.set_options(with_threads(2));  // as a session does before each go
        const bool solve = i % 2 == 0;
        const Position& pos =
            solve ? endgame[static_cast<std::size_t>(i / 2 % 20)] : midgame[static_cast<std::size_t>(i / 2 % 40)];
        if (pos.is_over()) continue;
        CAPTURE(to_board_string(pos));
        SearchLimits limits;
        if (solve) {
            limits.solve = true;
        } else {
            limits.depth = 5;
        }
        const auto r = searcher.search(pos, limits, {}, stop);
        CHECK(is_legal(pos, r.best_move));
        if (solve) CHECK(r.exact);
        ++searches;
    }
    CHECK(searches >= 45);
    CHECK(searcher.worker_pool().threads_created() == created);
}
