// The selective search (engine/search/probcut_search.hpp) against plain negascout, and the selective
// flag of the transposition table.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <tuple>

#include "engine/board/notation.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/search/probcut_search.hpp"
#include "tests/search/probcut_models.hpp"
#include "tests/search/search_helpers.hpp"
#include "tests/support/random_positions.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;
using namespace reversi::testing;

namespace {

struct PatternCall {
    const eval::PatternEvaluator* evaluator;
    int operator()(const OthelloState& s) const noexcept { return evaluator->evaluate(s.pos); }
};
using PatternCtx = SearchContext<OthelloState, PatternCall, OthelloOrder>;

const eval::PatternEvaluator& pattern() {
    static const eval::PatternEvaluator p = *eval::PatternEvaluator::embedded_default();
    return p;
}

// Midgame positions (20-44 empties, side to move has a move) of seeded random games.
std::vector<Position> midgame_positions(int count, std::uint64_t seed) {
    std::vector<Position> out;
    for (const auto& p : random_positions(Variant::Standard, 4000, seed)) {
        if (p.empty_count() >= 20 && p.empty_count() <= 44 && p.moves() && (p.empty_count() % 5 == 0)) out.push_back(p);
        if (static_cast<int>(out.size()) == count) break;
    }
    return out;
}

struct Run {
    int value = 0;
    std::uint64_t nodes = 0;
    std::uint64_t leaves = 0;
};

// Plain negascout (`pc` == nullptr) or the selective one, each with its own fresh table (or none).
Run search(const Position& pos, int depth, int alpha, int beta, const ProbCut* pc, bool with_tt) {
    TranspositionTable tt(1);
    PatternCtx ctx{PatternCall{&pattern()}, OthelloOrder{}, with_tt ? &tt : nullptr};
    const OthelloState root{pos};
    Run r;
    r.value = pc ? run_probcut_negascout(ctx, *pc, root, depth, alpha, beta).value
                 : run_algorithm(Algorithm::NegaScout, ctx, root, depth, alpha, beta, 0).value;
    r.nodes = ctx.nodes;
    r.leaves = ctx.leaves;
    return r;
}

constexpr int kInf = PatternCtx::kInfinity;

}  // namespace

TEST_CASE("probcut: the confidence quantile (two-sided normal) and 100 = off") {
    CHECK(std::isinf(selectivity_quantile(100)));
    CHECK(selectivity_quantile(73) == doctest::Approx(1.103).epsilon(0.002));
    CHECK(selectivity_quantile(87) == doctest::Approx(1.514).epsilon(0.002));
    CHECK(selectivity_quantile(95) == doctest::Approx(1.960).epsilon(0.002));
    CHECK(selectivity_quantile(99) == doctest::Approx(2.576).epsilon(0.002));
    CHECK(selectivity_quantile(50) == doctest::Approx(0.674).epsilon(0.002));
    for (int p = 50; p < 99; ++p) CHECK(selectivity_quantile(p) < selectivity_quantile(p + 1));
    const auto model = uniform_probcut_model(4.0F);
    CHECK(make_probcut(&model, 95).active());
    CHECK(!make_probcut(&model, 100).active());
    CHECK(!make_probcut(nullptr, 95).active());
    const eval::ProbCutModel empty;
    CHECK(!make_probcut(&empty, 95).active());
    CHECK(make_probcut(&model, 10).percent == kMinSelectivityPercent);  // clamped into 50..100
}

TEST_CASE("probcut: inactive (selectivity 100) it is negascout: same values, nodes and leaves, any window") {
    const auto model = uniform_probcut_model(4.0F);
    const ProbCut off = make_probcut(&model, 100);
    REQUIRE(!off.active());
    const auto positions = random_positions(Variant::Standard, 60, 4242);
    int compared = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        if (pos.is_over()) continue;
        const int depth = 1 + static_cast<int>(i % 6);
        for (bool tt : {false, true}) {
            for (auto [alpha, beta] : {std::pair{-kInf, kInf}, std::pair{-3, -2}, std::pair{-10, 6}}) {
                const Run plain = search(pos, depth, alpha, beta, nullptr, tt);
                const Run sel = search(pos, depth, alpha, beta, &off, tt);
                CAPTURE(i);
                CHECK(sel.value == plain.value);
                CHECK(sel.nodes == plain.nodes);
                CHECK(sel.leaves == plain.leaves);
                ++compared;
            }
        }
    }
    CHECK(compared > 300);
}

// The engine's written-out selective search against the generic body it specialises: the same values,
// root moves, nodes and leaves, with the trained model and a uniform one, every move ordering, any window.
TEST_CASE("probcut: selective_negascout visits exactly the nodes of negascout_with(MultiProbCut)") {
    REQUIRE(pattern().weights().probcut.has_value());
    const auto uniform = uniform_probcut_model(4.0F);
    const auto positions = midgame_positions(24, 9090);
    REQUIRE(positions.size() == 24);
    int compared = 0;
    for (const eval::ProbCutModel* model : {&*pattern().weights().probcut, &uniform}) {
        const ProbCut pc = make_probcut(model, 73);
        REQUIRE(pc.active());
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const int depth = 3 + static_cast<int>(i % 6);
            constexpr MoveOrdering kOrderings[] = {MoveOrdering::Evaluated, MoveOrdering::Normal, MoveOrdering::None,
                                                   MoveOrdering::Fixed};
            const MoveOrdering ordering = kOrderings[i % 4];
            for (auto [alpha, beta] : {std::pair{-kInf, kInf}, std::pair{-1, 0}, std::pair{-12, 4}}) {
                const auto run = [&](bool written_out) {
                    TranspositionTable tt(1);
                    PatternCtx ctx{PatternCall{&pattern()}, OthelloOrder{ordering, {27, 36, 0, 63}, &pattern()}, &tt};
                    ctx.selective = true;
                    const OthelloState root{positions[i]};
                    const int v = written_out ? selective_negascout(ctx, pc, root, depth, alpha, beta, 0)
                                              : negascout_with(ctx, MultiProbCut{&pc}, root, depth, alpha, beta, 0);
                    return std::tuple{v, ctx.root_best, ctx.nodes, ctx.leaves, ctx.max_ply};
                };
                CAPTURE(i);
                CAPTURE(alpha);
                CHECK(run(true) == run(false));
                ++compared;
            }
        }
    }
    CHECK(compared == 144);
}

TEST_CASE("probcut: a model whose margin never fits the score range gives negascout's values and nodes") {
    const auto model = uniform_probcut_model(1.0e6F);
    const ProbCut pc = make_probcut(&model, 73);
    REQUIRE(pc.active());
    for (const Position& pos : midgame_positions(8, 77)) {
        const Run plain = search(pos, 6, -kInf, kInf, nullptr, true);
        const Run sel = search(pos, 6, -kInf, kInf, &pc, true);
        CHECK(sel.value == plain.value);
        CHECK(sel.nodes == plain.nodes);
    }
}

TEST_CASE("probcut: a realistic model (a 1, b 0, sigma 4) at depths 8-10: far fewer nodes, values close") {
    for (ShallowRule rule : {ShallowRule::MinusTwo, ShallowRule::Half}) {
        const auto model = uniform_probcut_model(4.0F, rule);
        const ProbCut pc = make_probcut(&model, 95);
        std::uint64_t plain_nodes = 0;
        std::uint64_t sel_nodes = 0;
        int sum_diff = 0;
        int max_diff = 0;
        int n = 0;
        const int count = reversi::testing::sanitized_count(10, 4);
        const auto positions = midgame_positions(count, 1234);
        REQUIRE(static_cast<int>(positions.size()) == count);
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const int depth = 8 + static_cast<int>(i % 3);
            const Run plain = search(positions[i], depth, -kInf, kInf, nullptr, true);
            const Run sel = search(positions[i], depth, -kInf, kInf, &pc, true);
            plain_nodes += plain.nodes;
            sel_nodes += sel.nodes;
            const int diff = std::abs(sel.value - plain.value);
            sum_diff += diff;
            max_diff = std::max(max_diff, diff);
            ++n;
        }
        MESSAGE("shallow rule " << (rule == ShallowRule::Half ? "d/2" : "d-2") << ": plain " << plain_nodes
                                << " nodes, selective " << sel_nodes << ", mean |diff| "
                                << static_cast<double>(sum_diff) / n << ", max " << max_diff);
        CHECK(sel_nodes * 2 < plain_nodes);
        CHECK(sum_diff <= 3 * n);
        CHECK(max_diff <= 16);
    }
}

TEST_CASE("probcut: a depth-2 node is tested on its static evaluation, read once for both tests") {
    eval::ProbCutModel model;  // depth 2 only: the static evaluation (shallow 0), a 1, b 0, sigma 0.5
    for (auto& phase : model.lines) phase[2] = eval::ProbCutLine{0, 1.0F, 0.0F, 0.5F};
    const ProbCut pc = make_probcut(&model, 73);  // margin t * sigma = 0.55
    REQUIRE(pc.active());
    const auto node = [&](const Position& pos, int alpha, int beta) {
        PatternCtx ctx{PatternCall{&pattern()}, OthelloOrder{}, nullptr};
        ctx.selective = true;
        const int v = selective_negascout(ctx, pc, OthelloState{pos}, 2, alpha, beta, 1);  // below the root
        return Run{v, ctx.nodes, ctx.leaves};
    };
    const auto plain = [&](const Position& pos, int alpha, int beta) {
        PatternCtx ctx{PatternCall{&pattern()}, OthelloOrder{}, nullptr};
        const int v = negascout(ctx, OthelloState{pos}, 2, alpha, beta, 1);
        return Run{v, ctx.nodes, ctx.leaves};
    };
    int tested = 0;
    for (const Position& pos : midgame_positions(12, 4321)) {
        const int v = pattern().evaluate(pos);
        CAPTURE(to_board_string(pos));
        // Far above beta: cut high (the node and its static evaluation: two nodes, one leaf).
        const Run high = node(pos, v - 7, v - 5);
        CHECK(high.value == v - 5);
        CHECK(high.nodes == 2);
        CHECK(high.leaves == 1);
        // Far below alpha: cut low.
        const Run low = node(pos, v + 5, v + 7);
        CHECK(low.value == v + 5);
        CHECK(low.nodes == 2);
        CHECK(low.leaves == 1);
        // Inside the margin: no cut; the search is plain negascout's plus the one evaluation.
        const Run none = node(pos, v - 1, v + 1);
        const Run reference = plain(pos, v - 1, v + 1);
        CHECK(none.value == reference.value);
        CHECK(none.nodes == reference.nodes + 1);
        CHECK(none.leaves == reference.leaves + 1);
        ++tested;
    }
    CHECK(tested == 12);
}

TEST_CASE("probcut: lines beyond the calibrated depths borrow the deepest line of the same parity") {
    // Phase 4 calibrated at depths 3-12 (a, b and sigma telling the depths apart), phase 5 at 3-6 with a
    // hole at 5, phase 6 not at all.
    eval::ProbCutModel m;
    const auto set = [&m](int phase, int d) {
        eval::ProbCutLine& l = m.lines[static_cast<std::size_t>(phase)][static_cast<std::size_t>(d)];
        l.shallow = static_cast<std::int8_t>(eval::probcut_shallow_depth(d));
        l.a = 1.0F + 0.01F * static_cast<float>(d);
        l.b = 0.1F * static_cast<float>(d);
        l.sigma = 2.0F + 0.25F * static_cast<float>(d);
    };
    for (int d = 3; d <= 12; ++d) set(4, d);
    for (int d : {3, 4, 6}) set(5, d);
    const auto line = [&m](int phase, int depth) { return probcut_line(m, phase, depth); };

    for (int d = 3; d <= 12; ++d) {  // calibrated: exactly the stored line
        const auto l = line(4, d);
        REQUIRE(l);
        CHECK(l->shallow == eval::probcut_shallow_depth(d));
        CHECK(l->sigma == m.lines[4][static_cast<std::size_t>(d)].sigma);
    }
    for (int d = 13; d <= 30; ++d) {  // beyond: the line of 12 or 11, its own shallow depth, a wider sigma
        const auto l = line(4, d);
        REQUIRE(l);
        const int from = d % 2 == 0 ? 12 : 11;
        const eval::ProbCutLine& src = m.lines[4][static_cast<std::size_t>(from)];
        CHECK(l->shallow == eval::probcut_shallow_depth(d));
        CHECK(l->shallow < d);
        CHECK(l->a == src.a);
        CHECK(l->b == src.b);
        CHECK(l->sigma == doctest::Approx(src.sigma * kExtrapolatedSigma));
    }
    CHECK(line(4, 2) == std::nullopt);  // below the calibration: never cut
    // A line on the static evaluation (shallow 0) is used with its sigma times kStaticCutSigma.
    m.lines[4][2] = eval::ProbCutLine{0, 1.1F, 0.3F, 2.0F};
    REQUIRE(line(4, 2));
    CHECK(line(4, 2)->shallow == 0);
    CHECK(line(4, 2)->a == 1.1F);
    CHECK(line(4, 2)->b == 0.3F);
    CHECK(line(4, 2)->sigma == doctest::Approx(2.0 * kStaticCutSigma));
    CHECK(kStaticCutSigma > 1.0);
    CHECK(line(5, 5) == std::nullopt);        // a hole inside the calibration stays a hole
    CHECK(line(5, 7)->b == m.lines[5][3].b);  // 7 borrows 5's parity: 5 is a hole, so 3
    CHECK(line(5, 8)->b == m.lines[5][6].b);
    CHECK(line(6, 14) == std::nullopt);  // an uncalibrated phase is never cut
    CHECK(line(-1, 14) == std::nullopt);
    CHECK(line(eval::kPhaseCount, 14) == std::nullopt);
}

TEST_CASE("transposition table: the selective flag (packing, probe semantics, replacement)") {
    const TTData d{-17, 40, 33, 12, true};
    const TTData u = TranspositionTable::unpack(TranspositionTable::pack(d, 31));
    CHECK(u.selective);
    CHECK(u.lower == -17);
    CHECK(u.upper == 40);
    CHECK(u.move == 33);
    CHECK(u.depth == 12);
    CHECK(!TranspositionTable::unpack(TranspositionTable::pack(TTData{-17, 40, 33, 12, false}, 31)).selective);

    TranspositionTable tt(1);
    PatternCtx plain{PatternCall{&pattern()}, OthelloOrder{}, &tt};
    PatternCtx selective{PatternCall{&pattern()}, OthelloOrder{}, &tt};
    selective.selective = true;
    const OthelloState s{*play_transcript(start_position(), "f5d6c3")};
    int value = 0;
    Move move = kNoMove;

    // A selective lower bound of 10 at depth 8: a cutoff for the selective search only; the move for both.
    selective.store(s, 8, 0, 5, 10, 19);
    CHECK(!plain.probe(s, 6, 0, 5, 1, value, move));
    CHECK(move == 19);
    CHECK(selective.probe(s, 6, 0, 5, 1, value, move));
    CHECK(value == 10);
    CHECK(move == 19);

    // A non-selective result of the same depth replaces it and cuts for both.
    plain.store(s, 8, 0, 5, 7, 20);
    CHECK(plain.probe(s, 6, 0, 5, 1, value, move));
    CHECK(value == 7);
    CHECK(selective.probe(s, 6, 0, 5, 1, value, move));
    CHECK(move == 20);

    // A selective result of equal or smaller depth does not replace a non-selective one.
    selective.store(s, 8, -5, 0, -30, 21);
    CHECK(plain.probe(s, 6, 0, 5, 1, value, move));
    CHECK(value == 7);
    CHECK(move == 20);
    // A deeper selective result does (and again cuts only the selective search).
    selective.store(s, 9, -5, 0, -30, 21);
    CHECK(!plain.probe(s, 6, 0, 5, 1, value, move));
    CHECK(move == 21);
    CHECK(selective.probe(s, 6, 0, 5, 1, value, move));
    CHECK(value == -30);
    // A non-selective result replaces a deeper selective one.
    plain.store(s, 4, 0, 5, 2, 22);
    CHECK(plain.probe(s, 4, 0, 5, 1, value, move));
    CHECK(value == 2);
    CHECK(move == 22);
}
