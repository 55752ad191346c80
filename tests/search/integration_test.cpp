// The Searcher's integration of the replaceable parts: the evaluation (pattern or heuristic) and the
// dedicated endgame solver behind exact solves.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "engine/board/variant.hpp"
#include "engine/eval/heuristic.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/search/exact_solve.hpp"
#include "engine/search/searcher.hpp"
#include "tests/search/search_helpers.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;

namespace {

// Random 8x8 positions with exactly `empties` empty squares where the side to move has a move.
std::vector<Position> positions_with_empties(int empties, int count, std::uint64_t seed) {
    std::vector<Position> out;
    for (const auto& p : testing::random_positions(Variant::Standard, 20000, seed)) {
        if (p.empty_count() == empties && p.moves()) out.push_back(p);
        if (static_cast<int>(out.size()) == count) break;
    }
    return out;
}

SearchResult run(Searcher& s, const Position& pos, SearchLimits limits, const SearchOptions& o) {
    const std::atomic<bool> stop{false};
    s.set_options(o);
    return s.search(pos, limits, {}, stop);
}

}  // namespace

TEST_CASE("evaluation: pattern by default on 8x8, heuristic on the small boards and on request") {
    Searcher searcher(1);
    CHECK(searcher.evaluation_status().find("embedded default") != std::string::npos);
    CHECK(searcher.evaluation_name(start_position()) == "pattern");
    CHECK(searcher.evaluation_name(start_position(Variant::Board6x6)) == "heuristic");
    SearchOptions o;
    o.evaluation = EvalKind::Heuristic;
    searcher.set_options(o);
    CHECK(searcher.evaluation_name(start_position()) == "heuristic");
    CHECK(*parse_eval_kind("Pattern") == EvalKind::Pattern);
    CHECK(*parse_eval_kind("heuristic") == EvalKind::Heuristic);
    CHECK_FALSE(parse_eval_kind("nnue"));
}

TEST_CASE("evaluation: depth-1 search values follow the chosen evaluation") {
    const HeuristicEvaluator heuristic;
    const auto pattern = eval::PatternEvaluator::embedded_default();
    REQUIRE(pattern);
    Searcher searcher(1);
    SearchLimits limits;
    limits.depth = 1;
    int differ = 0;
    for (const auto& pos : testing::random_positions(Variant::Standard, 300, 5)) {
        if (pos.is_over() || pos.empty_count() < 10 || !pos.moves()) continue;
        for (EvalKind kind : {EvalKind::Pattern, EvalKind::Heuristic}) {
            SearchOptions o;
            o.evaluation = kind;
            o.use_tt = false;
            const Evaluator& e = kind == EvalKind::Pattern ? static_cast<const Evaluator&>(*pattern) : heuristic;
            int best = -65;
            for (int sq : squares(pos.moves())) best = std::max(best, -e.evaluate(pos.play(sq)));
            CHECK(run(searcher, pos, limits, o).score == best);
        }
        int hp = -65, pp = -65;
        for (int sq : squares(pos.moves())) {
            hp = std::max(hp, -heuristic.evaluate(pos.play(sq)));
            pp = std::max(pp, -pattern->evaluate(pos.play(sq)));
        }
        differ += hp != pp;
    }
    CHECK(differ > 10);  // the two evaluations are really different functions
}

TEST_CASE("evaluation: a bad weights file is refused and the current weights stay") {
    Searcher searcher(1);
    const std::string before = searcher.evaluation_status();
    auto missing = searcher.load_weights("/nonexistent/weights.bin");
    REQUIRE_FALSE(missing);
    CHECK_FALSE(missing.error().message.empty());
    // append, not +: GCC 12's -Warray-bounds false positive on the moved string (TSan build).
    const std::string path = std::string(REVERSI_BINARY_DIR).append("/garbage.weights");
    {
        std::ofstream out(path, std::ios::binary);
        out << "this is not a weights file";
    }
    CHECK_FALSE(searcher.load_weights(path));
    CHECK(searcher.evaluation_status() == before);
    CHECK(searcher.evaluation_name(start_position()) == "pattern");
    std::remove(path.c_str());
}

TEST_CASE("exact solves: the dedicated solver applies only in the engine's own configuration") {
    const Position pos = start_position();
    SearchOptions o;
    CHECK(endgame_solver_applies(pos, o, true));
    CHECK_FALSE(endgame_solver_applies(pos, o, false));
    CHECK(endgame_solver_applies(start_position(Variant::Board6x6), o, true));  // the variant solver
    o.algorithm = Algorithm::AlphaBeta;
    CHECK_FALSE(endgame_solver_applies(pos, o, true));
    o = SearchOptions{};
    o.use_tt = false;
    CHECK_FALSE(endgame_solver_applies(pos, o, true));
    o = SearchOptions{};
    o.multipv = 2;
    CHECK_FALSE(endgame_solver_applies(pos, o, true));
    o = SearchOptions{};
    o.dedicated_endgame = false;
    CHECK_FALSE(endgame_solver_applies(pos, o, true));
}

TEST_CASE("exact solves: the dedicated solver and the generic search agree (score, WLD, best move's value)") {
    Searcher dedicated(4), generic(4);
    SearchOptions textbook;
    textbook.algorithm = Algorithm::AlphaBeta;  // keeps the generic solve
    for (const auto& pos : positions_with_empties(12, 25, 77)) {
        SearchLimits solve;
        solve.solve = true;
        const SearchResult a = run(dedicated, pos, solve, SearchOptions{});
        const SearchResult b = run(generic, pos, solve, textbook);
        REQUIRE(a.exact);
        CHECK(a.score == b.score);
        // The best move really reaches the score.
        const SearchResult after = run(generic, pos.play_move(a.best_move), solve, textbook);
        CHECK(-after.score == a.score);
        SearchLimits wld;
        wld.wld = true;
        const SearchResult w = run(dedicated, pos, wld, SearchOptions{});
        CHECK(w.score == (b.score > 0) - (b.score < 0));
        SearchLimits deep;
        deep.depth = 30;  // depth >= empties solves exactly too
        CHECK(run(dedicated, pos, deep, SearchOptions{}).score == b.score);
    }
}

TEST_CASE("exact solves: stop and node limits end a dedicated solve promptly with a legal move") {
    // FFO #40-like depth: 20+ empties take far longer than the limits below.
    const auto positions = positions_with_empties(26, 2, 3);
    REQUIRE(positions.size() == 2);
    Searcher searcher(16);
    for (const auto& pos : positions) {
        SearchLimits limits;
        limits.solve = true;
        std::atomic<bool> stop{false};
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            stop.store(true);
        });
        const auto t0 = std::chrono::steady_clock::now();
        searcher.set_options(SearchOptions{});
        const SearchResult r = searcher.search(pos, limits, {}, stop);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
        stopper.join();
        CHECK(ms.count() < 3000);
        CHECK((pos.moves() & square_bit(r.best_move)) != 0);

        SearchLimits timed;
        timed.solve = true;
        timed.hard_time = std::chrono::milliseconds(100);
        const std::atomic<bool> never{false};
        const auto t1 = std::chrono::steady_clock::now();
        const SearchResult t = searcher.search(pos, timed, {}, never);
        CHECK(std::chrono::steady_clock::now() - t1 < std::chrono::seconds(3));
        CHECK((pos.moves() & square_bit(t.best_move)) != 0);
    }
}
