// Unit tests of the clock handling (limits counted from reading `go`, the adaptive margin) and of what a
// stopped search reports (session::search_completed).
#include <doctest/doctest.h>

#include <atomic>

#include "engine/board/notation.hpp"
#include "engine/search/searcher.hpp"
#include "protocol/session/completed_search.hpp"
#include "protocol/time/latency_tracker.hpp"
#include "protocol/time/time_manager.hpp"

using namespace reversi;
using std::chrono::milliseconds;

namespace {

Position position_after(const char* transcript) {
    auto moves = parse_transcript(transcript);
    REQUIRE(moves);
    Position pos = start_position();
    for (Move m : *moves) pos = pos.play_move(m);
    return pos;
}

timing::PlannedMove planned(int side, int empties, std::int64_t remaining, std::int64_t hard) {
    return timing::PlannedMove{side, empties, remaining, 0, hard};
}

}  // namespace

TEST_CASE("time manager: limits count from reading go, a late start shortens them, never below 1 ms") {
    const timing::TimeLimits planned{milliseconds(100), milliseconds(400)};
    auto t = timing::limits_after(planned, milliseconds(0));
    CHECK(*t.soft == milliseconds(100));
    CHECK(*t.hard == milliseconds(400));
    t = timing::limits_after(planned, milliseconds(150));
    CHECK(*t.soft == milliseconds(1));
    CHECK(*t.hard == milliseconds(250));
    t = timing::limits_after(planned, milliseconds(5000));
    CHECK(*t.hard == milliseconds(1));
    CHECK(!timing::limits_after(timing::TimeLimits{}, milliseconds(10)).hard);
}

TEST_CASE("time manager: the adaptive margin shortens clock searches only, movetime keeps its budget") {
    timing::LatencyTracker latency;
    latency.on_go(planned(0, 40, -1, 25));  // go movetime 30 with MoveOverhead 5
    latency.on_answer(45);                  // answered 20 ms late (a load spike)
    REQUIRE(latency.margin_ms() == 30);
    timing::ClockState c;
    c.movetime_ms = 30;
    c.empties = 38;
    c.overhead_ms = timing::planned_overhead(5, latency.margin_ms(), false);
    CHECK(*timing::plan_move_time(c).hard == milliseconds(25));  // not 1 ms for the rest of the session
    timing::ClockState clock;
    clock.remaining_ms = 10000;
    clock.empties = 38;
    clock.overhead_ms = timing::planned_overhead(5, latency.margin_ms(), true);
    timing::ClockState no_margin = clock;
    no_margin.overhead_ms = 5;
    CHECK(*timing::plan_move_time(clock).hard < *timing::plan_move_time(no_margin).hard);
}

TEST_CASE("latency tracker: no margin until an answer is late, and the engine's own lateness counts") {
    timing::LatencyTracker tracker;
    CHECK(tracker.margin_ms() == 0);
    tracker.on_go(planned(0, 50, 10000, 300));
    tracker.on_answer(250);  // inside the hard limit
    CHECK(tracker.margin_ms() == 0);
    tracker.on_go(planned(1, 49, 10000, 300));
    tracker.on_answer(380);  // 80 ms late
    CHECK(tracker.worst_ms() == 80);
    CHECK(tracker.margin_ms() == 120);
    tracker.on_answer(900);  // a second answer to the same go is ignored
    CHECK(tracker.worst_ms() == 80);
}

TEST_CASE("latency tracker: the GUI's clock reveals the delay the engine cannot see") {
    timing::LatencyTracker tracker;
    tracker.on_go(planned(0, 50, 10000, 300));
    tracker.on_answer(100);  // on time as the engine sees it (it stopped well before the hard limit)
    CHECK(tracker.margin_ms() == 0);
    // Two plies later the GUI says black has 9,700 ms left: it charged 300 ms, 200 more than the engine
    // took; a move that used its whole hard limit would have been charged 500.
    tracker.on_go(planned(0, 48, 9700, 300));
    CHECK(tracker.worst_ms() == 200);
    CHECK(tracker.margin_ms() == 300);
    // A new game (the clock went up, more empties): no sample.
    tracker.on_answer(10);
    tracker.on_go(planned(0, 60, 10000, 300));
    CHECK(tracker.worst_ms() == 200);
    // A game of moves on time: the worst decays by 1/32 a move.
    std::int64_t remaining = 10000;
    for (int empties = 58; empties > 0; empties -= 2) {
        tracker.on_answer(10);
        remaining -= 10;
        tracker.on_go(planned(0, empties, remaining, 300));
    }
    CHECK(tracker.worst_ms() >= 60);
    CHECK(tracker.worst_ms() <= 80);
}

TEST_CASE("latency tracker: a one-time preparation is no sign of latency") {
    timing::LatencyTracker tracker;
    tracker.on_go(planned(0, 50, 10000, 300));
    tracker.on_answer(800, 600);  // 600 ms allocating a table, then on time
    CHECK(tracker.worst_ms() == 0);
    tracker.on_go(planned(0, 48, 9200, 300));  // the GUI charged 800 ms: all of it seen by the engine
    CHECK(tracker.worst_ms() == 0);
}

TEST_CASE("latency tracker: the margin is capped") {
    timing::LatencyTracker tracker;
    tracker.on_go(planned(0, 50, 100000, 10));
    tracker.on_answer(60000);
    CHECK(tracker.margin_ms() == timing::LatencyTracker::kMaxMarginMs);
}

TEST_CASE("a search stopped before its first iteration completes still reports a depth-1 move and value") {
    Searcher searcher(1);
    SearchOptions options;
    options.selectivity = kEngineSelectivityPercent;
    searcher.set_options(options);
    const Position pos = position_after("f5f6d3c5e6f7e7f4");
    SearchLimits limits;
    limits.depth = 20;
    limits.nodes = 1;  // aborted at the first node, as an at-once stop is
    const std::atomic<bool> stop{false};
    CHECK(searcher.search(pos, limits, {}, stop).depth == 0);  // what the front ends must not report as is
    const SearchResult r = session::search_completed(searcher, pos, limits, {}, stop);
    CHECK(r.depth == 1);
    CHECK((pos.moves() & square_bit(r.best_move)) != 0);
    SearchLimits one;
    one.depth = 1;
    const SearchResult reference = searcher.search(pos, one, {}, stop);
    CHECK(r.best_move == reference.best_move);
    CHECK(r.score == reference.score);
    // Already stopped, restricted to one move: that move, at depth 1.
    const std::atomic<bool> stopped{true};
    limits.nodes.reset();
    limits.search_moves = {reference.best_move};
    const SearchResult only = session::search_completed(searcher, pos, limits, {}, stopped);
    CHECK(only.depth >= 1);
    CHECK(only.best_move == reference.best_move);
}

TEST_CASE("a stopped search reports the move, value and PV of its last completed iteration") {
    // Node limits that stop the search inside an iteration; the result must be the last reported
    // iteration's, never the stopped iteration's best-so-far move with the previous iteration's value.
    const Position positions[] = {position_after("f5f6d3c5e6f7e7f4"), position_after("f5d6c3d3c4f4f6f3e6e7"),
                                  position_after("c4c3d3c5b4d2e2")};
    int checked = 0;
    for (const Position& pos : positions) {
        for (std::uint64_t nodes = 300; nodes <= 40000; nodes = nodes * 5 / 4) {
            Searcher searcher(1);
            SearchOptions options;
            options.selectivity = kEngineSelectivityPercent;
            searcher.set_options(options);
            SearchLimits limits;
            limits.nodes = nodes;
            std::vector<IterationReport> reports;
            SearchCallbacks callbacks;
            callbacks.on_iteration = [&](const IterationReport& r) { reports.push_back(r); };
            const std::atomic<bool> stop{false};
            const SearchResult r = session::search_completed(searcher, pos, limits, callbacks, stop);
            REQUIRE(!reports.empty());
            const IterationReport& last = reports.back();
            CHECK_MESSAGE(r.depth == last.depth, "nodes " << nodes);
            CHECK_MESSAGE(r.best_move == last.pv.front(), "nodes " << nodes << " depth " << last.depth);
            CHECK_MESSAGE(r.score == last.score, "nodes " << nodes);
            CHECK(r.pv == last.pv);
            ++checked;
        }
    }
    CHECK(checked > 30);
}
