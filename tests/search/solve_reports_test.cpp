// The Searcher's exact iterations through the dedicated solver report as the midgame ones do
// (IterationReport through SearchCallbacks::on_iteration), and take the same limits.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/endgame/solver.hpp"
#include "engine/search/exact_solve.hpp"
#include "engine/search/searcher.hpp"
#include "engine/search/solve_progress.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"
#include "tests/support/ffo_positions.hpp"

using namespace reversi;

namespace {

using Clock = std::chrono::steady_clock;

using testing::board;
using testing::kFfo40;
using testing::kFfo53;

struct ReportLog {
    std::mutex mutex;
    std::vector<IterationReport> reports;
    SearchCallbacks callbacks() {
        SearchCallbacks cb;
        cb.on_iteration = [this](const IterationReport& r) {
            std::lock_guard lock(mutex);
            reports.push_back(r);
        };
        return cb;
    }
};

}  // namespace

TEST_CASE("Searcher solve: root moves are reported at depth = empties, as bounds, before the exact result") {
    const Position pos = board(kFfo40);
    for (int threads : {1, 2}) {
        Searcher searcher(16);
        SearchOptions options;
        options.threads = threads;
        searcher.set_options(options);
        const std::atomic<bool> stop{false};
        SearchLimits limits;
        limits.solve = true;
        ReportLog got;
        const SearchResult r = searcher.search(pos, limits, got.callbacks(), stop);
        CAPTURE(threads);
        CHECK(r.exact);
        CHECK(r.score == 38);
        REQUIRE(!got.reports.empty());
        const IterationReport& last = got.reports.back();
        CHECK(last.depth == 20);
        CHECK(last.exact);
        CHECK(last.bound == Bound::Exact);
        int before = 0;
        int bounds = 0;
        int selective = 0;
        for (std::size_t i = 0; i + 1 < got.reports.size(); ++i) {
            const IterationReport& x = got.reports[i];
            if (x.depth != 20) continue;
            ++before;
            CHECK(!x.exact);
            if (x.bound != Bound::Exact) ++bounds;
            if (x.selectivity < 100) ++selective;
            if (!x.progress) CHECK(!x.pv.empty());
        }
        CHECK(before >= 1);
        CHECK(bounds >= 1);
        CHECK(selective >= 1);  // 20 empties: the selective passes come first, labelled
    }
}

TEST_CASE("Searcher solve: the node limit and the deadline reach the solver directly") {
    const Position pos = board(kFfo53);
    Searcher searcher(16);
    const std::atomic<bool> stop{false};
    SUBCASE("nodes") {
        SearchLimits limits;
        limits.solve = true;
        // The midgame iterations to depth 8 take a small part of it; the solver checks the rest every
        // 4096 nodes (it used to check after each root move, millions of nodes at 28 empties).
        limits.nodes = 2'000'000;
        const SearchResult r = searcher.search(pos, limits, {}, stop);
        CHECK(!r.exact);
        CHECK(r.depth == 8);
        CHECK(r.nodes >= 2'000'000);
        CHECK(r.nodes < 2'300'000);
    }
    SUBCASE("deadline") {
        SearchLimits limits;
        limits.solve = true;
        limits.hard_time = std::chrono::milliseconds(300);
        const auto t0 = Clock::now();
        const SearchResult r = searcher.search(pos, limits, {}, stop);
        CHECK(!r.exact);
        CHECK(Clock::now() - t0 < std::chrono::seconds(3));
        CHECK(r.best_move < kPass);
    }
}

TEST_CASE("Searcher solve: stopped in a later pass, the answer is the last selective pass at 87 % or more") {
    // FFO #40 (20 empties: the solver's selective passes run, 68 %, 87 %, 95 %, 99 %, then the exact one).
    // A first solve records the nodes at the end of the 95 % pass; a second one, with a node budget just
    // past them, is stopped in a later pass and answers with that pass's move and score, reported at
    // depth = empties as selective (not exact), instead of the depth-8 midgame move before the solve.
    const Position pos = board(kFfo40);
    const std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.solve = true;
    std::uint64_t nodes_95 = 0;
    Move move_95 = kNoMove;
    {
        Searcher searcher(16);
        ReportLog got;
        const SearchResult full = searcher.search(pos, limits, got.callbacks(), stop);
        REQUIRE(full.exact);
        for (const IterationReport& r : got.reports) {
            if (r.depth == 20 && !r.progress && r.selectivity == 95 && r.nodes > nodes_95) {
                nodes_95 = r.nodes;
                move_95 = r.pv.empty() ? kNoMove : r.pv.front();
            }
        }
    }
    REQUIRE(nodes_95 > 0);
    Searcher searcher(16);
    limits.nodes = nodes_95 + 1;
    const SearchResult r = searcher.search(pos, limits, {}, stop);
    CHECK(!r.exact);
    CHECK(r.depth == 20);
    CHECK(r.selectivity >= kUsableSelectivityPercent);
    CHECK(r.selectivity < kMaxSelectivityPercent);
    CHECK((pos.moves() & square_bit(r.best_move)) != 0);
    if (r.selectivity == 95) CHECK(r.best_move == move_95);
    CHECK(std::abs(r.score - 38) <= 8);  // a selective score, near the exact +38
}

TEST_CASE("Searcher timed: the solve proves win/loss/draw first and keeps a proven win when stopped") {
    // FFO #40 (20 empties, +38). A timed search (a time limit, no depth, no solve asked) solves without
    // the selective passes: a win/loss/draw pass at 87 % (kTimedWldLevel), the exact WLD pass, then the
    // exact one, handed the last midgame iteration's move and score. The solver alone, called as the
    // Searcher calls it, gives the nodes at the end of the exact WLD pass; a budget just past them
    // answers with the proven win (score +1, reported as wld), through run_endgame_solver as through the
    // Searcher.
    const Position pos = board(kFfo40);
    REQUIRE(pos.empty_count() >= kTimedWldEmpties);
    const int timed_percent = endgame_selectivity_percent(kTimedWldLevel);
    const std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.hard_time = std::chrono::minutes(10);
    std::uint64_t midgame_nodes = 0;
    Move midgame_move = kNoMove;
    int midgame_score = 0;
    {
        Searcher searcher(16);
        ReportLog got;
        const SearchResult full = searcher.search(pos, limits, got.callbacks(), stop);
        CHECK(full.exact);
        CHECK(full.score == 38);
        for (const IterationReport& r : got.reports) {
            if (r.depth < 20) {
                midgame_nodes = r.nodes;
                midgame_move = r.pv.front();
                midgame_score = r.score;
            }
            // No selective pass but the selective WLD pass.
            if (r.depth == 20 && !r.progress)
                CHECK((r.selectivity == kMaxSelectivityPercent || r.selectivity == timed_percent));
        }
    }
    REQUIRE(midgame_nodes > 0);
    std::uint64_t selective_nodes = 0;
    std::uint64_t wld_nodes = 0;
    Move wld_move = kNoMove;
    {
        endgame::EndgameSolver solver(16);
        endgame::SolveOptions options;
        options.wld_first = true;
        options.wld_first_level = kTimedWldLevel;
        options.selective = false;
        options.first_move = midgame_move;
        options.guess = midgame_score;
        const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) {
            if (!p.pass_end) return;
            if (p.selectivity_level == kTimedWldLevel && selective_nodes == 0) {
                CHECK(p.score >= 1);  // a probable win
                selective_nodes = p.nodes;
            } else if (p.selectivity_level == 0 && wld_nodes == 0) {
                CHECK(selective_nodes > 0);  // after the selective pass
                CHECK(p.bound == Bound::Lower);
                CHECK(p.score >= 1);
                wld_nodes = p.nodes;
                wld_move = p.move;
            }
        };
        const auto full = solver.solve(pos, options, endgame::SolveLimits{&stop, std::nullopt, std::nullopt}, progress);
        REQUIRE(full);
        CHECK(full->score == 38);
    }
    REQUIRE(selective_nodes > 0);
    REQUIRE(wld_nodes > selective_nodes);
    const auto bridge = [&](std::uint64_t budget) {
        endgame::EndgameSolver solver(16);
        ExactSolveRequest request;
        request.wld_first = true;
        request.first_move = midgame_move;
        request.guess = midgame_score;
        request.limits.stop = &stop;
        request.limits.nodes = budget;
        return run_endgame_solver(solver, pos, request);
    };
    {
        const ExactSolveOutcome o = bridge(wld_nodes + 1);
        CHECK(o.complete);
        CHECK(o.wld);
        CHECK(o.value == 1);
        CHECK(o.best_move == wld_move);
        CHECK(o.selectivity == kMaxSelectivityPercent);
    }
    Searcher searcher(16);
    limits.nodes = midgame_nodes + wld_nodes + 1;
    ReportLog got;
    const SearchResult r = searcher.search(pos, limits, got.callbacks(), stop);
    CHECK(!r.exact);
    CHECK(r.depth == 20);
    CHECK(r.score == 1);
    CHECK(r.best_move == wld_move);
    REQUIRE(!got.reports.empty());
    CHECK(got.reports.back().wld);
    CHECK(!got.reports.back().exact);
}

TEST_CASE("Searcher timed: stopped after the selective win/loss/draw pass, a probable win or draw plays its move") {
    // Positions with 20 empties whose exact WLD pass takes many more nodes than the selective one before it
    // (so that a budget just past the selective pass surely stops the exact one, the limits being polled
    // every few thousand nodes). With that budget the solver holds the selective pass (level kTimedWldLevel,
    // window (-1, 1)) as its last pass, and the bridge answers with its move, selectivity 87 and the sign of
    // its score when it found a probable win or draw; after a probable loss it answers nothing (the
    // Searcher keeps its midgame move).
    const std::atomic<bool> stop{false};
    const int timed_percent = endgame_selectivity_percent(kTimedWldLevel);
    int checked = 0;
    for (const Position& pos : endgame_test::positions_with_empties(20, 24, 5120)) {
        if (pos.must_pass() || checked >= 3) continue;
        CAPTURE(to_board_string(pos));
        endgame::SolveOptions options;
        options.wld_first = true;
        options.wld_first_level = kTimedWldLevel;
        options.selective = false;
        std::uint64_t selective_nodes = 0;
        std::uint64_t wld_nodes = 0;
        int selective_score = 0;
        Move selective_move = kNoMove;
        {
            endgame::EndgameSolver solver(16);
            const endgame::ProgressCallback progress = [&](const endgame::RootProgress& p) {
                if (!p.pass_end) return;
                if (p.selectivity_level == kTimedWldLevel && selective_nodes == 0) {
                    selective_nodes = p.nodes;
                    selective_score = p.score;
                    selective_move = p.move;
                } else if (p.selectivity_level == 0 && wld_nodes == 0) {
                    wld_nodes = p.nodes;
                }
            };
            REQUIRE(solver.solve(pos, options, endgame::SolveLimits{&stop, std::nullopt, std::nullopt}, progress));
        }
        REQUIRE(selective_nodes > 0);
        if (wld_nodes < selective_nodes + 200'000) continue;
        ++checked;
        endgame::EndgameSolver solver(16);
        const auto r = solver.solve(pos, options, endgame::SolveLimits{&stop, std::nullopt, selective_nodes + 1});
        REQUIRE(r);
        CHECK(!r->completed);
        CHECK(!r->wld_pass);
        REQUIRE(r->last_pass);
        CHECK(r->last_pass->level == kTimedWldLevel);
        CHECK(r->last_pass->wld_window);
        CHECK(r->last_pass->score == selective_score);
        CHECK(r->last_pass->best_move == selective_move);

        endgame::EndgameSolver bridge_solver(16);
        ExactSolveRequest request;
        request.wld_first = true;
        request.limits.stop = &stop;
        request.limits.nodes = selective_nodes + 1;
        const ExactSolveOutcome o = run_endgame_solver(bridge_solver, pos, request);
        CHECK(!o.complete);
        CHECK(!o.wld);
        if (selective_score >= 0) {
            CHECK(o.selectivity == timed_percent);
            CHECK(o.best_move == selective_move);
            CHECK(o.value == (selective_score > 0 ? 1 : 0));
        } else {
            CHECK(o.selectivity == kMaxSelectivityPercent);  // nothing usable: the midgame move stays
        }
    }
    CHECK(checked > 0);
}

TEST_CASE("Searcher timed: the solve searches the last midgame iteration's best move first") {
    // Positions with 14 empties: the midgame iterations end at 8 plies (empties - 6), then the solve's
    // win/loss/draw pass starts with their best move. Where that move does not lose, it is the first root
    // move the solve reports (a new best that is not an upper bound); the solver's own order would often
    // start elsewhere.
    const std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.hard_time = std::chrono::minutes(10);
    int checked = 0;
    for (const Position& pos : endgame_test::positions_with_empties(14, 40, 4914)) {
        if (pos.must_pass() || popcount(pos.moves()) < 3) continue;
        CAPTURE(to_board_string(pos));
        Searcher searcher(4);
        ReportLog got;
        const SearchResult r = searcher.search(pos, limits, got.callbacks(), stop);
        REQUIRE(r.exact);
        Move midgame_best = kNoMove;
        Move first_solve_move = kNoMove;
        for (const IterationReport& report : got.reports) {
            if (report.progress || report.pv.empty()) continue;
            if (report.depth < 14) midgame_best = report.pv.front();
            if (report.depth == 14 && first_solve_move == kNoMove) first_solve_move = report.pv.front();
        }
        REQUIRE(midgame_best != kNoMove);
        if (endgame_test::plain_solve(pos.play_move(midgame_best)) > 0) continue;  // it loses: reported later
        CHECK(first_solve_move == midgame_best);
        ++checked;
    }
    CHECK(checked >= 10);
}

TEST_CASE("Searcher infinite: returns when its last depth is done, the caller waits for stop") {
    // FFO #1, 14 empties: every iteration is done in milliseconds; the search no longer waits for stop
    // (the protocol does, on a condition). A stopper ends a search that would wait anyway, after 5 s.
    const Position pos = board("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X");
    Searcher searcher(8);
    std::atomic<bool> stop{false};
    std::atomic<bool> done{false};
    std::thread stopper([&] {
        for (int i = 0; i < 100 && !done.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        stop.store(true);
    });
    SearchLimits limits;
    limits.infinite = true;
    const auto t0 = Clock::now();
    const SearchResult r = searcher.search(pos, limits, {}, stop);
    const auto took = Clock::now() - t0;
    done.store(true);
    stopper.join();
    CHECK(took < std::chrono::seconds(4));
    CHECK(r.exact);
    CHECK(r.score == 18);
}

TEST_CASE("endgame selectivity levels map to the midgame's percent vocabulary") {
    CHECK(endgame_selectivity_percent(0) == kMaxSelectivityPercent);
    CHECK(endgame_selectivity_percent(1) == 99);
    CHECK(endgame_selectivity_percent(2) == 95);
    CHECK(endgame_selectivity_percent(3) == 87);
    CHECK(endgame_selectivity_percent(4) == 68);
}

TEST_CASE("solve progress: what the solver reports becomes bounds, estimates and progress lines") {
    SolveProgress progress(SolveProgress::Base{20, false, 1000, Clock::now(), 7});
    endgame::RootProgress move;  // the first root move of the exact pass, inside the window
    move.move = 12;
    move.score = 6;
    move.new_best = true;
    auto r = progress.translate(move);
    REQUIRE(r);
    CHECK(r->depth == 20);
    CHECK(r->bound == Bound::Lower);
    CHECK(r->score == 6);
    CHECK(r->nodes == 1000);
    CHECK(r->hashfull == 7);
    CHECK(r->pv == std::vector<Move>{12});
    CHECK(r->selectivity == 100);
    CHECK(!progress.translate(move));    // the same again says nothing new
    endgame::RootProgress worse = move;  // a move proved worse: not the root's news
    worse.move = 20;
    worse.new_best = false;
    worse.bound = Bound::Upper;
    CHECK(!progress.translate(worse));
    endgame::RootProgress fail_low = move;  // an aspiration pass that failed low
    fail_low.pass_end = true;
    fail_low.bound = Bound::Upper;
    r = progress.translate(fail_low);
    REQUIRE(r);
    CHECK(r->bound == Bound::Upper);
    endgame::RootProgress exact = move;  // the end of the exact pass: the Searcher reports the result
    exact.pass_end = true;
    exact.score = 4;
    CHECK(!progress.translate(exact));
    endgame::RootProgress selective = exact;  // a selective pass's end: an estimate at its confidence
    selective.selectivity_level = 2;
    r = progress.translate(selective);
    REQUIRE(r);
    CHECK(r->bound == Bound::Exact);
    CHECK(r->selectivity == 95);
    endgame::RootProgress tick;  // the periodic report
    tick.nodes = 5000;
    r = progress.translate(tick);
    REQUIRE(r);
    CHECK(r->progress);
    CHECK(r->nodes == 6000);
    CHECK(r->pv.empty());
}

TEST_CASE("solve progress: a root that must pass reports the pass first and bounds on the root's side") {
    // Black must pass here (a probe's position; exact -60 for Black). Before, the reports named White's
    // moves as the root's (pv g6) and turned White's new best moves into lower bounds of the root
    // (-52 lowerbound, above the exact -60).
    auto moves =
        parse_transcript("f5d6c3f4c6c4c5b5g4b7b6d3b8a7e6c7a5b4d7b2d8f7e7g5e3c8h5a8g8f8a1d2c1f6c2a6e8h8a4a3g7b3");
    REQUIRE(moves);
    Position pos = start_position();
    for (const Move m : *moves) {
        auto next = apply_move(pos, m);
        REQUIRE(next);
        pos = *next;
    }
    REQUIRE(pos.must_pass());
    Searcher searcher(16);
    const std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.solve = true;
    ReportLog got;
    const SearchResult r = searcher.search(pos, limits, got.callbacks(), stop);
    REQUIRE(r.exact);
    CHECK(r.score == -60);
    int solver_reports = 0;
    for (const IterationReport& x : got.reports) {
        if (x.depth != pos.empty_count() || x.progress) continue;
        ++solver_reports;
        CAPTURE(x.score);
        REQUIRE(!x.pv.empty());
        CHECK(x.pv.front() == kPass);
        if (x.bound == Bound::Lower) CHECK(x.score <= r.score);
        if (x.bound == Bound::Upper) CHECK(x.score >= r.score);
    }
    CHECK(solver_reports >= 2);
}
