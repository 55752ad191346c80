// The Searcher facade: limits, options, stop flag, reports, exact solves, the bench fingerprint.
#include <doctest/doctest.h>

#include <thread>

#include "engine/board/notation.hpp"
#include "engine/search/bench.hpp"
#include "engine/search/searcher.hpp"
#include "engine/search/soft_limit.hpp"
#include "tests/search/search_helpers.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::testing;

namespace {

Position midgame() { return *play_transcript(start_position(), "f5d6c3d3c4f4f6f3e6e7c6g5"); }

}  // namespace

TEST_CASE("Searcher: go depth N gives the depth-N minimax value for every algorithm, ID and aspiration on/off") {
    const HeuristicEvaluator eval;
    const auto positions = random_positions(Variant::Standard, 30, 99);
    const std::atomic<bool> stop{false};
    Searcher searcher(1);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        if (pos.is_over()) continue;
        const int depth = 1 + static_cast<int>(i % 4);
        const int expected = reference_value(pos, depth, eval);
        for (Algorithm a : kAllAlgorithms) {
            for (int variant = 0; variant < 4; ++variant) {
                SearchOptions o;
                o.evaluation = EvalKind::Heuristic;  // the reference values use the heuristic evaluation
                o.algorithm = a;
                o.iterative_deepening = variant & 1;
                o.aspiration = variant & 2;
                searcher.set_options(o);
                searcher.clear();
                SearchLimits limits;
                limits.depth = depth;
                int reports = 0;
                SearchCallbacks cb;
                cb.on_iteration = [&](const IterationReport& r) {
                    ++reports;
                    CHECK(r.nodes > 0);
                    CHECK(!r.pv.empty());
                };
                const auto r = searcher.search(pos, limits, cb, stop);
                CAPTURE(algorithm_name(a));
                CAPTURE(variant);
                CAPTURE(i);
                CHECK(r.score == expected);
                CHECK(r.depth == std::min(depth, pos.empty_count()));
                CHECK(is_legal(pos, r.best_move));
                CHECK(reports == (o.iterative_deepening ? r.depth : 1));
                CHECK(r.nodes >= r.leaves);
                CHECK(r.algorithm == a);
            }
        }
    }
}

TEST_CASE("Searcher: solve and wld on random endgames equal the reference solver") {
    const std::atomic<bool> stop{false};
    Searcher searcher(4);
    int solved = 0;
    for (const Position& pos : random_positions(Variant::Standard, 3000, 5)) {
        if (pos.empty_count() > 9 || pos.is_over() || solved >= 25) continue;
        ++solved;
        const int expected = reference_solve(OthelloState{pos});
        SearchLimits limits;
        limits.solve = true;
        auto r = searcher.search(pos, limits, {}, stop);
        CHECK(r.score == expected);
        CHECK(r.exact);
        CHECK(is_legal(pos, r.best_move));
        CHECK(-reference_solve(OthelloState{pos.play_move(r.best_move)}) == expected);
        limits.solve = false;
        limits.wld = true;
        r = searcher.search(pos, limits, {}, stop);
        CHECK(r.score == (expected > 0) - (expected < 0));
        limits.wld = false;
        limits.depth = 60;  // depth >= empties: exact
        r = searcher.search(pos, limits, {}, stop);
        CHECK(r.score == expected);
        CHECK(r.exact);
    }
    CHECK(solved == 25);
}

TEST_CASE("Searcher: game over, forced pass, search_moves") {
    const std::atomic<bool> stop{false};
    Searcher searcher(1);
    SearchLimits limits;
    limits.depth = 3;
    for (const Position& pos : random_positions(Variant::Standard, 4000, 11)) {
        if (pos.is_over()) {
            const auto r = searcher.search(pos, limits, {}, stop);
            CHECK(r.best_move == kNoMove);
            CHECK(r.score == pos.final_score());
        } else if (pos.must_pass()) {
            const auto r = searcher.search(pos, limits, {}, stop);
            CHECK(r.best_move == kPass);
        }
    }
    const Position pos = midgame();
    std::vector<Move> moves;
    for (int sq : squares(pos.moves())) moves.push_back(static_cast<Move>(sq));
    REQUIRE(moves.size() >= 3);
    for (Move only : moves) {
        limits.search_moves = {only};
        const auto r = searcher.search(pos, limits, {}, stop);
        CHECK(r.best_move == only);
    }
}

TEST_CASE("Searcher: a root searched over some of its moves leaves no value for a search from its parent") {
    // searchmoves and MultiPV's later lines value the root over some of its moves only: before, that value
    // was stored as the position's, and a search from the position before it took it (wrong scores).
    const HeuristicEvaluator eval;
    const std::atomic<bool> stop{false};
    Searcher searcher(1);
    int checked = 0;
    for (const Position& parent : random_positions(Variant::Standard, 400, 23)) {
        if (parent.is_over() || parent.must_pass() || parent.empty_count() < 12 || checked >= 40) continue;
        const int depth = 3 + checked % 3;
        const int expected = reference_value(parent, depth, eval);
        for (int multipv : {1, 3}) {
            SearchOptions o;
            o.evaluation = EvalKind::Heuristic;  // the reference value's, and no selective cuts
            o.multipv = multipv;
            searcher.set_options(o);
            searcher.clear();
            SearchLimits limits;
            limits.depth = depth - 1;
            for (int sq : squares(parent.moves())) {
                const Position child = parent.play_move(static_cast<Move>(sq));
                std::vector<Move> replies;
                for (int r : squares(child.moves())) replies.push_back(static_cast<Move>(r));
                if (replies.size() < 2) continue;
                limits.search_moves.clear();
                if (multipv == 1) limits.search_moves.push_back(replies.back());
                (void)searcher.search(child, limits, {}, stop);
            }
            o.multipv = 1;
            searcher.set_options(o);
            SearchLimits parent_limits;
            parent_limits.depth = depth;
            CAPTURE(checked);
            CAPTURE(multipv);
            CHECK(searcher.search(parent, parent_limits, {}, stop).score == expected);
        }
        ++checked;
    }
    CHECK(checked == 40);
}

TEST_CASE("Searcher: MultiPV reports one line per rank with distinct moves, best first") {
    const std::atomic<bool> stop{false};
    Searcher searcher(4);
    SearchOptions o;
    o.evaluation = EvalKind::Heuristic;  // the reference values use the heuristic evaluation
    o.multipv = 3;
    searcher.set_options(o);
    SearchLimits limits;
    limits.depth = 4;
    std::vector<IterationReport> last;
    SearchCallbacks cb;
    cb.on_iteration = [&](const IterationReport& r) {
        if (r.multipv == 1) last.clear();
        last.push_back(r);
    };
    const auto r = searcher.search(midgame(), limits, cb, stop);
    REQUIRE(last.size() == 3);
    CHECK(last[0].pv.front() == r.best_move);
    CHECK(last[0].pv.front() != last[1].pv.front());
    CHECK(last[1].pv.front() != last[2].pv.front());
    CHECK(last[0].score >= last[1].score);
    CHECK(last[1].score >= last[2].score);
}

TEST_CASE("Searcher: each completed iteration reports the soft limit's scale after it") {
    // A pondering search has no limits of its own: after ponderhit the protocol holds it to the share
    // scaled by this factor (protocol/uci/ponder_control.hpp), so it must be the search's own.
    const std::atomic<bool> stop{false};
    Searcher searcher(4);
    SearchLimits limits;
    limits.depth = 10;
    int changed = 0;
    int searched = 0;
    for (const auto& pos : random_positions(Variant::Standard, 120, 7)) {
        if (pos.empty_count() < 24 || pos.empty_count() > 50) continue;  // midgame iterations only
        if (++searched > 16) break;
        std::vector<IterationReport> reports;
        SearchCallbacks cb;
        cb.on_iteration = [&](const IterationReport& r) { reports.push_back(r); };
        (void)searcher.search(pos, limits, cb, stop);
        SoftLimitScale expected;
        for (const auto& r : reports) {
            REQUIRE(!r.progress);
            REQUIRE(!r.pv.empty());
            expected.push(r.depth, r.pv.front());
            REQUIRE(r.soft_limit_factor);
            CHECK(*r.soft_limit_factor == expected.factor());
            if (*r.soft_limit_factor > SoftLimitScale::kSettledScale) ++changed;
        }
    }
    CHECK(changed > 0);  // some best move changed, so the check above saw factors other than 1
}

TEST_CASE("Searcher: stop flag, node limit and time limit end the search promptly with a legal move") {
    const Position pos = midgame();
    Searcher searcher(8);
    SUBCASE("stop set while searching infinitely") {
        std::atomic<bool> stop{false};
        SearchLimits limits;
        limits.infinite = true;
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            stop.store(true);
        });
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = searcher.search(pos, limits, {}, stop);
        stopper.join();
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
        CHECK(is_legal(pos, r.best_move));
        CHECK(r.depth >= 1);
    }
    SUBCASE("stop already set: still a legal move") {
        const std::atomic<bool> stop{true};
        SearchLimits limits;
        const auto r = searcher.search(pos, limits, {}, stop);
        CHECK(is_legal(pos, r.best_move));
        CHECK(r.nodes < 5000);
    }
    SUBCASE("node limit, deterministic after clear") {
        const std::atomic<bool> stop{false};
        SearchLimits limits;
        limits.nodes = 20000;
        searcher.clear();
        const auto a = searcher.search(pos, limits, {}, stop);
        searcher.clear();
        const auto b = searcher.search(pos, limits, {}, stop);
        CHECK(a.nodes == b.nodes);
        CHECK(a.best_move == b.best_move);
        CHECK(a.nodes <= 20000);
        CHECK(is_legal(pos, a.best_move));
    }
    SUBCASE("hard time") {
        const std::atomic<bool> stop{false};
        SearchLimits limits;
        limits.hard_time = std::chrono::milliseconds(100);
        const auto t0 = std::chrono::steady_clock::now();
        const auto r = searcher.search(pos, limits, {}, stop);
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
        CHECK(is_legal(pos, r.best_move));
    }
    SUBCASE("soft time: no new iteration after it") {
        const std::atomic<bool> stop{false};
        SearchLimits limits;
        limits.soft_time = std::chrono::milliseconds(0);
        const auto r = searcher.search(pos, limits, {}, stop);
        CHECK(r.depth == 1);
    }
}

TEST_CASE("Searcher: helper threads share the table and return a legal move") {
    const std::atomic<bool> stop{false};
    Searcher searcher(8);
    SearchOptions o;
    o.evaluation = EvalKind::Heuristic;  // the reference values use the heuristic evaluation
    o.threads = 2;
    searcher.set_options(o);
    SearchLimits limits;
    limits.depth = 6;
    const Position pos = midgame();
    const auto r = searcher.search(pos, limits, {}, stop);
    CHECK(is_legal(pos, r.best_move));
    CHECK(r.depth == 6);
}

TEST_CASE("transposition table: packing, probing, merging bounds, sizes") {
    TranspositionTable tt(1);
    CHECK(tt.bucket_count() == (1u << 20) / 64);
    const TTData d{-17, 40, 33, 12};
    const TTData u = TranspositionTable::unpack(TranspositionTable::pack(d, 5));
    CHECK(u.lower == -17);
    CHECK(u.upper == 40);
    CHECK(u.move == 33);
    CHECK(u.depth == 12);
    const TTData extreme =
        TranspositionTable::unpack(TranspositionTable::pack(TTData{-(1 << 20) - 1, (1 << 20) + 1, kNoMove, 127}, 63));
    CHECK(extreme.lower == -(1 << 20) - 1);
    CHECK(extreme.upper == (1 << 20) + 1);
    CHECK(extreme.move == kNoMove);
    CHECK(extreme.depth == 127);

    TTData out;
    CHECK(!tt.probe(12345, out));
    tt.store(12345, 6, 3, 100, 20);
    REQUIRE(tt.probe(12345, out));
    CHECK(out.lower == 3);
    CHECK(out.upper == 100);
    tt.store(12345, 6, -100, 9, kNoMove);  // same depth: merged, the move kept
    REQUIRE(tt.probe(12345, out));
    CHECK(out.lower == 3);
    CHECK(out.upper == 9);
    CHECK(out.move == 20);
    tt.store(12345, 4, 0, 0, 21);  // shallower: the deeper entry is kept
    REQUIRE(tt.probe(12345, out));
    CHECK(out.depth == 6);
    CHECK(!tt.probe(12345 + (std::uint64_t{1} << 40), out));  // same bucket, other key
    tt.clear();
    CHECK(!tt.probe(12345, out));
    CHECK(tt.resize(2));
    CHECK(tt.bucket_count() == (2u << 20) / 64);
}

TEST_CASE("bench: the node total is deterministic") {
    BenchOptions options;
    options.depth = 4;
    const auto a = run_bench(options);
    const auto b = run_bench(options);
    CHECK(a.positions == 8);
    CHECK(a.nodes == b.nodes);
    CHECK(a.nodes > 0);
}

TEST_CASE("Searcher: the article's diamond-parallel count through the options (fixed order, TT off, ID off)") {
    Searcher searcher(1);
    SearchOptions o;
    o.evaluation = EvalKind::Heuristic;  // the reference values use the heuristic evaluation
    o.algorithm = Algorithm::AlphaBeta;
    o.use_tt = false;
    o.iterative_deepening = false;
    o.ordering = MoveOrdering::Fixed;
    o.fixed_order.assign(kDiamondArticleOrder.begin(), kDiamondArticleOrder.end());
    searcher.set_options(o);
    SearchLimits limits;
    limits.solve = true;
    const std::atomic<bool> stop{false};
    const auto r = searcher.search(start_position(Variant::DiamondParallel), limits, {}, stop);
    CHECK(r.score == 10);
    CHECK(r.exact);
    CHECK(r.leaves == 898585);
}
