// Split points anywhere in the tree (engine/endgame/split_point.hpp): the hand-out and merge rules, the
// board's choice, the value of a shared move (shared_move.hpp), and searches that offer their moves to an
// idle thread against one-thread searches.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "engine/board/moves.hpp"
#include "engine/board/notation.hpp"
#include "engine/endgame/search_worker.hpp"
#include "engine/endgame/shared_move.hpp"
#include "engine/endgame/solver.hpp"
#include "engine/endgame/split_point.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/thread_comparison.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;

namespace {

endgame::EndgameMoveList five_moves() {
    endgame::EndgameMoveList list;
    for (int i = 0; i < 5; ++i) {
        list.moves[static_cast<std::size_t>(i)].square = 10 + i;
        list.moves[static_cast<std::size_t>(i)].flipped = 0;
    }
    list.size = 5;
    return list;
}

endgame::SolveControl unlimited_control(const std::atomic<bool>& stop) {
    return endgame::SolveControl(endgame::SolveLimits{&stop, std::nullopt, std::nullopt},
                                 std::chrono::steady_clock::now());
}

}  // namespace

TEST_CASE("shared_move_score: a null-window test, a second test when alpha rose past it, a re-search at PV nodes") {
    // A scripted child: alpha's successive readings, the test's and the re-search's scores; every call
    // is logged as ('t', a) (a test against a) or ('r', a) (a re-search with the window (a, beta)).
    struct Script {
        std::vector<int> alphas;
        std::vector<int> tests;
        int research_score = 0;
        bool stop_after_test = false;
        std::size_t next_alpha = 0;
        std::size_t next_test = 0;
        bool stopped = false;
        std::vector<std::pair<char, int>> calls{};
    };
    auto run = [](Script& s, int beta, bool pv) {
        return endgame::shared_move_score(
            beta, pv, [&] { return s.alphas.at(std::min(s.next_alpha++, s.alphas.size() - 1)); },
            [&](int a) {
                s.calls.emplace_back('t', a);
                s.stopped = s.stop_after_test;
                return s.tests.at(s.next_test++);
            },
            [&](int a) {
                s.calls.emplace_back('r', a);
                return s.research_score;
            },
            [&] { return s.stopped; });
    };
    using Calls = std::vector<std::pair<char, int>>;
    SUBCASE("a test at or below alpha is the move's score, with no re-search") {
        Script s{{2}, {1}};
        CHECK(run(s, 10, true) == std::optional<int>(1));
        CHECK(s.calls == Calls{{'t', 2}});
    }
    SUBCASE("a fail high at a PV node is searched again from the current alpha") {
        Script s{{2, 2}, {5}, 7};
        CHECK(run(s, 10, true) == std::optional<int>(7));
        CHECK(s.calls == Calls{{'t', 2}, {'r', 2}});
    }
    SUBCASE("alpha raised past the test's score meanwhile: tested again at the new alpha") {
        Script s{{2, 6, 6}, {5, 4}};
        CHECK(run(s, 10, true) == std::optional<int>(4));
        CHECK(s.calls == Calls{{'t', 2}, {'t', 6}});
    }
    SUBCASE("alpha raised, but not past the test's score: re-searched from the new alpha") {
        Script s{{2, 3}, {5}, 8};
        CHECK(run(s, 10, true) == std::optional<int>(8));
        CHECK(s.calls == Calls{{'t', 2}, {'r', 3}});
    }
    SUBCASE("a fail high at beta needs no re-search") {
        Script s{{2, 2}, {12}};
        CHECK(run(s, 10, true) == std::optional<int>(12));
        CHECK(s.calls == Calls{{'t', 2}});
    }
    SUBCASE("away from the PV a fail high is the score as it is") {
        Script s{{2}, {5}};
        CHECK(run(s, 10, false) == std::optional<int>(5));
        CHECK(s.calls == Calls{{'t', 2}});
    }
    SUBCASE("a node already cut, before the test or after it, gives the move no value") {
        Script cut{{10}, {}};
        CHECK_FALSE(run(cut, 10, true).has_value());
        CHECK(cut.calls.empty());
        Script later{{2, 11}, {5}};
        CHECK_FALSE(run(later, 10, true).has_value());
        CHECK(later.calls == Calls{{'t', 2}});
    }
    SUBCASE("a stopped test gives the move no value") {
        Script s{{2}, {5}, 7, true};
        CHECK_FALSE(run(s, 10, true).has_value());
        CHECK(s.calls == Calls{{'t', 2}});
    }
}

TEST_CASE("SplitPoint: each move handed out once in order, scores raise alpha, a beta cut stops the hand-out") {
    const endgame::EndgameMoveList list = five_moves();
    // Moves 1-4 offered (move 0, scored -3, was searched by the owner); window (-10, 6).
    endgame::SplitPoint sp(0, 0, 20, -10, 6, true, 0, 12, list, 1, -3, static_cast<Move>(10));
    CHECK(sp.alpha() == -3);
    CHECK(sp.take() == 1);
    CHECK(sp.take() == 2);
    sp.merge(2, -5);  // worse than the best: nothing changes
    CHECK(sp.alpha() == -3);
    CHECK(sp.best_move() == static_cast<Move>(10));
    sp.merge(1, 2);
    CHECK(sp.alpha() == 2);
    CHECK(sp.best() == 2);
    CHECK(sp.best_move() == static_cast<Move>(11));
    CHECK_FALSE(sp.stop_flag()->load());
    sp.merge(2, 6);  // reaches beta: cut
    CHECK(sp.stop_flag()->load());
    CHECK(sp.best() == 6);
    CHECK(sp.best_move() == static_cast<Move>(12));
    CHECK(sp.take() == -1);  // moves 3 and 4 are never handed out after the cut

    endgame::SplitPoint rest(0, 0, 20, 0, 1, false, 0, 12, list, 3, -8, static_cast<Move>(10));
    CHECK(rest.take() == 3);
    CHECK(rest.take() == 4);
    CHECK(rest.take() == -1);
    endgame::SplitPoint abandoned(0, 0, 20, 0, 1, false, 0, 12, list, 1, -8, static_cast<Move>(10));
    abandoned.abandon();
    CHECK(abandoned.take() == -1);
}

TEST_CASE(
    "SplitBoard: a waiter enters the open split point nearest the root below its own empties, none once withdrawn") {
    const endgame::EndgameMoveList list = five_moves();
    endgame::SplitBoard board;
    CHECK_FALSE(board.wanted());
    {
        endgame::SplitBoard::Idle idle(board);
        CHECK(board.wanted());
    }
    CHECK_FALSE(board.wanted());
    CHECK(board.enter(64) == nullptr);

    endgame::SplitPoint deep(0, 0, 13, 0, 1, false, 0, 12, list, 1, -8, static_cast<Move>(10));
    endgame::SplitPoint high(0, 0, 17, 0, 1, false, 0, 12, list, 1, -8, static_cast<Move>(10));
    board.publish(deep);
    board.publish(high);
    CHECK(board.offers() == 2);
    endgame::SplitPoint* a = board.enter(64);
    CHECK(a == &high);
    CHECK(high.helpers() == 1);
    CHECK(board.enter(17) == &deep);  // a thread waiting at a 17-empties join helps only below it
    CHECK(board.enter(13) == nullptr);
    high.leave({100, 2, 7});
    deep.leave({});
    CHECK(high.helpers() == 0);
    CHECK(high.helper_counts().nodes == 100);
    CHECK(high.helper_counts().probcuts == 2);
    CHECK(high.helper_counts().scored_children == 7);
    // A split point with no move left takes no helper.
    while (high.take() >= 0) {
    }
    CHECK(board.enter(64) == nullptr);
    board.withdraw(high);
    board.withdraw(deep);
    CHECK(board.enter(64) == nullptr);
}

TEST_CASE(
    "SearchWorker, two threads through a split board: the moves offered to the idle thread give the one-thread "
    "values") {
    endgame::EndgameTT tt_one(16);
    endgame::EndgameTT tt_two(16);
    std::atomic<bool> stop{false};
    endgame::SolveControl control = unlimited_control(stop);
    std::uint64_t offers = 0;
    for (const auto& pos : endgame_test::positions_with_empties(16, 5, 7373)) {
        tt_one.clear();
        tt_two.clear();
        endgame::SearchWorker one(tt_one, control);
        const int truth = one.search(pos.player, pos.opponent, -64, 64);

        endgame::SplitBoard board;
        endgame::SearchWorker owner(tt_two, control);
        endgame::SearchWorker idle(tt_two, control);
        owner.set_split_board(&board);
        idle.set_split_board(&board);
        std::atomic<bool> done{false};
        std::thread helper([&] { idle.wait_helping(endgame::kScoreMax, [&] { return done.load(); }); });
        // Wait until the helper is idle, so that the search offers its moves from the start.
        while (!board.wanted()) std::this_thread::yield();
        const int full = owner.search(pos.player, pos.opponent, -64, 64);
        const int nws = owner.null_window(pos.player, pos.opponent, truth - 1);
        done = true;
        helper.join();
        CAPTURE(to_board_string(pos));
        CHECK(full == truth);
        CHECK(nws >= truth);  // a fail high at truth - 1: a lower bound
        CHECK_FALSE(owner.aborted());
        offers += board.offers();
    }
    CHECK(offers > 0);
}

TEST_CASE("EndgameSolver with two threads offers split points and agrees with one thread (exact and selective)") {
    endgame::EndgameSolver one(16);
    endgame::EndgameSolver two(16);
    std::uint64_t splits = 0;
    for (const auto& pos : endgame_test::positions_with_empties(17, reversi::testing::sanitized_count(4, 2), 8181)) {
        for (const bool selective : {false, true}) {
            endgame::SolveOptions base;
            base.selective = selective;
            base.selective_min_empties = 14;
            const auto [a, b] = endgame_test::solve_both(one, two, pos, endgame_test::with_threads(base, 2));
            CAPTURE(to_board_string(pos));
            CHECK(b.completed);
            CHECK(a.score == b.score);
            CHECK(a.splits == 0);  // one thread never offers
            splits += b.splits;
        }
    }
    CHECK(splits > 0);
}
