// The Searcher's use of the selective search: when it is on (negascout, pattern evaluation on 8x8, a
// calibration, selectivity < 100, not exact, not solve/wld), what it reports, and that exact solves and
// non-selective searches are never affected by it.
#include <doctest/doctest.h>

#include <random>
#include <thread>

#include "engine/board/notation.hpp"
#include "engine/search/searcher.hpp"
#include "tests/search/probcut_models.hpp"
#include "tests/search/search_helpers.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::testing;

namespace {

struct ProbCutRun {
    SearchResult result;
    std::vector<IterationReport> reports;
};

ProbCutRun run_collecting(Searcher& s, const Position& pos, const SearchLimits& limits, const SearchOptions& o) {
    const std::atomic<bool> stop{false};
    s.set_options(o);
    ProbCutRun c;
    SearchCallbacks callbacks;
    callbacks.on_iteration = [&](const IterationReport& r) { c.reports.push_back(r); };
    c.result = s.search(pos, limits, callbacks, stop);
    return c;
}

SearchOptions with_selectivity(int percent) {
    SearchOptions o;
    o.selectivity = percent;
    o.threads = 1;
    return o;
}

SearchLimits depth_limit(int depth) {
    SearchLimits l;
    l.depth = depth;
    return l;
}

std::vector<Position> positions_with_empties(int lo, int hi, int count, std::uint64_t seed) {
    std::vector<Position> out;
    for (const auto& p : random_positions(Variant::Standard, 20000, seed)) {
        if (p.empty_count() >= lo && p.empty_count() <= hi && p.moves()) out.push_back(p);
        if (static_cast<int>(out.size()) == count) break;
    }
    return out;
}

const Position kMidgame = *play_transcript(start_position(), "f5d6c3d3c4f4f6f3e6e7c6g5");

}  // namespace

TEST_CASE("Searcher selectivity: 100 gives the plain search exactly, < 100 cuts, reports it, fewer nodes") {
    Searcher plain(4);
    plain.set_probcut_model(eval::ProbCutModel{});  // no calibration: never selective
    Searcher sel(4);
    sel.set_probcut_model(uniform_probcut_model(4.0F));
    REQUIRE(sel.probcut_model() != nullptr);
    CHECK(plain.probcut_model() == nullptr);

    const ProbCutRun a = run_collecting(plain, kMidgame, depth_limit(9), with_selectivity(95));
    const ProbCutRun b = run_collecting(sel, kMidgame, depth_limit(9), with_selectivity(100));
    CHECK(a.result.nodes == b.result.nodes);
    CHECK(a.result.score == b.result.score);
    CHECK(a.result.best_move == b.result.best_move);
    CHECK(a.result.selectivity == 100);
    CHECK(b.result.selectivity == 100);
    for (const auto& r : b.reports) CHECK(r.selectivity == 100);

    sel.clear();
    const ProbCutRun c = run_collecting(sel, kMidgame, depth_limit(9), with_selectivity(95));
    CHECK(c.result.selectivity == 95);
    REQUIRE(c.reports.size() == 9);
    for (const auto& r : c.reports) CHECK(r.selectivity == 95);
    CHECK(c.result.nodes * 2 < b.result.nodes);
    CHECK(std::abs(c.result.score - b.result.score) <= 8);
    CHECK(is_legal(kMidgame, c.result.best_move));
}

TEST_CASE("Searcher selectivity: never selective with another algorithm, the heuristic, or a small board") {
    Searcher searcher(4);
    searcher.set_probcut_model(uniform_probcut_model(4.0F));
    SearchOptions o = with_selectivity(73);
    o.algorithm = Algorithm::AlphaBeta;
    CHECK(run_collecting(searcher, kMidgame, depth_limit(6), o).result.selectivity == 100);
    o.algorithm = Algorithm::MtdF;
    CHECK(run_collecting(searcher, kMidgame, depth_limit(6), o).result.selectivity == 100);
    o = with_selectivity(73);
    o.evaluation = EvalKind::Heuristic;
    CHECK(run_collecting(searcher, kMidgame, depth_limit(6), o).result.selectivity == 100);
    o = with_selectivity(73);
    const Position small = start_position(Variant::Board6x6);
    const ProbCutRun c = run_collecting(searcher, small, depth_limit(6), o);
    CHECK(c.result.selectivity == 100);
    for (const auto& r : c.reports) CHECK(r.selectivity == 100);
    CHECK(run_collecting(searcher, kMidgame, depth_limit(6), o).result.selectivity == 73);  // and on when it applies
}

TEST_CASE("Searcher selectivity: selective table entries never give a non-selective search a cutoff") {
    // The same search at 100 after one at 73 on the same table must give the fresh plain value: the
    // selective entries have exactly the depths the second search needs, so using their bounds would
    // change its values.
    const auto model = uniform_probcut_model(2.0F, ShallowRule::Half);  // aggressive: many cuts
    int differing = 0;
    for (const Position& pos : positions_with_empties(24, 40, 8, 31)) {
        Searcher fresh(4);
        fresh.set_probcut_model(model);
        const ProbCutRun expected = run_collecting(fresh, pos, depth_limit(8), with_selectivity(100));
        Searcher warm(4);
        warm.set_probcut_model(model);
        const ProbCutRun selective = run_collecting(warm, pos, depth_limit(8), with_selectivity(73));
        const ProbCutRun after = run_collecting(warm, pos, depth_limit(8), with_selectivity(100));
        CHECK(after.result.score == expected.result.score);
        CHECK(after.result.selectivity == 100);
        if (selective.result.score != expected.result.score) ++differing;
    }
    MESSAGE(differing << " of 8 selective values differ from the plain ones");
}

TEST_CASE("Searcher selectivity: exact solves ignore it (FFO #1-#6 with selectivity 73 and an aggressive model)") {
    const std::string dir = shared_data_dir();
    if (dir.empty()) {
        MESSAGE("skipped: the shared data folder ../shared/data is absent");
        return;
    }
    const auto entries = read_obf_file(dir + "/ffo/fforum-1-19.obf");
    REQUIRE(entries);
    Searcher searcher(16);
    searcher.set_probcut_model(uniform_probcut_model(1.0F, ShallowRule::Half));
    for (int n = 1; n <= 6; ++n) {
        const ObfEntry& e = (*entries)[static_cast<std::size_t>(n - 1)];
        CAPTURE(n);
        const auto expected = e.best_score();
        REQUIRE(expected);
        SearchLimits solve;
        solve.solve = true;
        const ProbCutRun s = run_collecting(searcher, e.position, solve, with_selectivity(73));
        CHECK(s.result.exact);
        CHECK(s.result.score == *expected);
        CHECK(s.result.selectivity == 100);
        for (const auto& r : s.reports) CHECK(r.selectivity == 100);
        // depth = empties: selective midgame iterations, then the exact one (the same table).
        const ProbCutRun d =
            run_collecting(searcher, e.position, depth_limit(e.position.empty_count()), with_selectivity(73));
        CHECK(d.result.exact);
        CHECK(d.result.score == *expected);
        REQUIRE(!d.reports.empty());
        CHECK(d.reports.back().selectivity == 100);
        CHECK(d.reports.front().selectivity == 73);
    }
}

TEST_CASE("Searcher selectivity: the generic exact solve after selective iterations on the same table") {
    const auto model = uniform_probcut_model(1.0F, ShallowRule::Half);
    for (const Position& pos : positions_with_empties(11, 12, 6, 5)) {
        SearchOptions generic = with_selectivity(73);
        generic.dedicated_endgame = false;
        Searcher reference(4);
        const ProbCutRun exact = run_collecting(reference, pos, depth_limit(pos.empty_count()), with_selectivity(100));
        Searcher searcher(4);
        searcher.set_probcut_model(model);
        (void)run_collecting(searcher, pos, depth_limit(pos.empty_count() - 1),
                             generic);  // selective entries in the table
        const ProbCutRun d = run_collecting(searcher, pos, depth_limit(pos.empty_count()), generic);
        CHECK(d.result.exact);
        CHECK(d.result.score == exact.result.score);
    }
}

TEST_CASE("Searcher selectivity: random stops and two threads still give a legal move") {
    Searcher searcher(4);
    searcher.set_probcut_model(uniform_probcut_model(3.0F));
    std::mt19937 rng(7);
    const auto positions = positions_with_empties(14, 50, 12, 77);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        SearchOptions o = with_selectivity(i % 2 ? 87 : 95);
        o.threads = 1 + static_cast<int>(i % 2);
        searcher.set_options(o);
        std::atomic<bool> stop{false};
        SearchLimits limits;
        limits.infinite = true;
        const int delay_ms = static_cast<int>(rng() % 40);
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            stop.store(true);
        });
        const SearchResult r = searcher.search(pos, limits, {}, stop);
        stopper.join();
        CAPTURE(i);
        CHECK(is_legal(pos, r.best_move));
    }
}

TEST_CASE("Searcher selectivity: the embedded calibration makes the engine's default selective") {
    Searcher searcher(16);
    const eval::ProbCutModel* model = searcher.probcut_model();
    REQUIRE_MESSAGE(model != nullptr, "the embedded weights carry no Multi-ProbCut calibration");
    CHECK(!model->empty());
    const ProbCutRun plain = run_collecting(searcher, kMidgame, depth_limit(10), with_selectivity(100));
    searcher.clear();
    const ProbCutRun engine =
        run_collecting(searcher, kMidgame, depth_limit(10), with_selectivity(kEngineSelectivityPercent));
    CHECK(plain.result.selectivity == 100);
    CHECK(engine.result.selectivity == kEngineSelectivityPercent);
    REQUIRE(!engine.reports.empty());
    CHECK(engine.reports.back().selectivity == kEngineSelectivityPercent);
    CHECK(engine.result.nodes * 2 < plain.result.nodes);
    CHECK(std::abs(engine.result.score - plain.result.score) <= 6);
    MESSAGE("depth 10: plain " << plain.result.nodes << " nodes, selectivity " << kEngineSelectivityPercent << " "
                               << engine.result.nodes << " nodes; scores " << plain.result.score << " / "
                               << engine.result.score);
    // Back to the weights' model after an override.
    searcher.set_probcut_model(eval::ProbCutModel{});
    CHECK(searcher.probcut_model() == nullptr);
    searcher.set_probcut_model(std::nullopt);
    CHECK(searcher.probcut_model() == model);
}
