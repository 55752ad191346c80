// Every algorithm, with and without the transposition table and with and without move ordering, returns
// exactly the value of an independent reference negamax.
#include <doctest/doctest.h>

#include <set>

#include "engine/board/variant.hpp"
#include "tests/search/search_helpers.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::testing;

namespace {

struct Config {
    Algorithm algorithm;
    bool use_tt;
    MoveOrdering ordering;
};

std::vector<Config> all_configs() {
    std::vector<Config> configs;
    for (Algorithm a : kAllAlgorithms) {
        for (bool tt : {false, true}) {
            for (MoveOrdering o : {MoveOrdering::Normal, MoveOrdering::None}) configs.push_back({a, tt, o});
        }
    }
    return configs;
}

// Positions of `variant`, each searched at depth 1 + (index % max_depth) by every configuration.
// Returns the number of searches checked.
int check_positions(Variant variant, int count, std::uint64_t seed, int max_depth) {
    const HeuristicEvaluator eval;
    const auto positions = random_positions(variant, count, seed);
    TranspositionTable tt(1);
    int checked = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        const int depth = 1 + static_cast<int>(i % static_cast<std::size_t>(max_depth));
        const int expected = reference_value(pos, depth, eval);
        for (const Config& c : all_configs()) {
            tt.clear();  // a fresh table: entries of deeper searches would (rightly) change the value
            OthelloCtx ctx(HeuristicCall{&eval}, OthelloOrder(c.ordering), c.use_tt ? &tt : nullptr);
            const int guess = static_cast<int>(i % 7) - 3;
            const auto r =
                run_algorithm(c.algorithm, ctx, OthelloState{pos}, depth, -ctx.kInfinity, ctx.kInfinity, guess);
            if (r.value != expected) {
                CAPTURE(algorithm_name(c.algorithm));
                CAPTURE(c.use_tt);
                CAPTURE(static_cast<int>(c.ordering));
                CAPTURE(depth);
                CAPTURE(i);
                CHECK(r.value == expected);
            }
            ++checked;
        }
    }
    return checked;
}

}  // namespace

TEST_CASE("random 8x8 positions, depths 1-5: every algorithm x TT x ordering equals the reference") {
    const int checked = check_positions(Variant::Standard, 120, 20240601, 5);
    MESSAGE(checked << " searches checked");
    CHECK(checked == 120 * 36);
}

TEST_CASE("random 6x6 positions, depths 1-5 and solved endgames") {
    CHECK(check_positions(Variant::Board6x6, 80, 66, 5) == 80 * 36);
    // Endgames (at most 10 empties) solved to the end against the reference solver.
    const HeuristicEvaluator eval;
    int solved = 0;
    TranspositionTable tt(1);
    for (const Position& pos : random_positions(Variant::Board6x6, 1500, 7)) {
        if (pos.empty_count() > 10 || solved >= 30) continue;
        ++solved;
        const int expected = reference_solve(OthelloState{pos});
        for (const Config& c : all_configs()) {
            tt.clear();
            OthelloCtx ctx(HeuristicCall{&eval}, OthelloOrder(c.ordering), c.use_tt ? &tt : nullptr);
            const auto r = run_algorithm(c.algorithm, ctx, OthelloState{pos}, 64, -65, 65, 0);
            CAPTURE(algorithm_name(c.algorithm));
            REQUIRE(r.value == expected);
        }
    }
    CHECK(solved == 30);
}

TEST_CASE("random 4x4 positions solved: every algorithm x TT x ordering equals the reference solver") {
    const HeuristicEvaluator eval;
    TranspositionTable tt(1);
    int checked = 0;
    for (const Position& pos : random_positions(Variant::Board4x4, 150, 44)) {
        const int expected = reference_solve(OthelloState{pos});
        for (const Config& c : all_configs()) {
            // Exact values do not depend on the depth: the table is shared across positions on purpose.
            OthelloCtx ctx(HeuristicCall{&eval}, OthelloOrder(c.ordering), c.use_tt ? &tt : nullptr);
            const auto r = run_algorithm(c.algorithm, ctx, OthelloState{pos}, 64, -65, 65, 0);
            CAPTURE(algorithm_name(c.algorithm));
            REQUIRE(r.value == expected);
            ++checked;
        }
    }
    CHECK(checked == 150 * 36);
}

namespace {

void collect_tictactoe(const TicTacToe& s, std::set<std::pair<int, int>>& seen, std::vector<TicTacToe>& out) {
    if (!seen.insert({s.player, s.opponent}).second) return;
    out.push_back(s);
    MoveList list;
    s.generate_moves(list);
    for (Move m : list) collect_tictactoe(s.play(m), seen, out);
}

}  // namespace

TEST_CASE("every reachable tic-tac-toe position: every algorithm x TT x ordering") {
    std::set<std::pair<int, int>> seen;
    std::vector<TicTacToe> states;
    collect_tictactoe(TicTacToe{}, seen, states);
    CHECK(states.size() == 5478);
    TranspositionTable tt(1);
    for (const TicTacToe& s : states) {
        const int expected = reference_solve(s);
        for (Algorithm a : kAllAlgorithms) {
            for (bool use_tt : {false, true}) {
                for (bool ordering : {false, true}) {
                    NaturalCtx<TicTacToe> ctx(NoEval{}, NaturalOrder{ordering}, use_tt ? &tt : nullptr);
                    const auto r = run_algorithm(a, ctx, s, 9, -2, 2, 0);
                    if (r.value != expected) {
                        CAPTURE(algorithm_name(a));
                        CHECK(r.value == expected);
                    }
                }
            }
        }
    }
}

TEST_CASE("synthetic uniform trees of several (n, d) and orders: every algorithm x TT x ordering") {
    struct Shape {
        int n, d;
    };
    for (const Shape shape :
         {Shape{2, 8}, Shape{3, 5}, Shape{4, 4}, Shape{5, 3}, Shape{8, 4}, Shape{1, 6}, Shape{6, 1}}) {
        for (TreeOrder order : {TreeOrder::Natural, TreeOrder::Perfect, TreeOrder::Good}) {
            for (std::uint64_t seed = 1; seed <= 4; ++seed) {
                auto tree = UniformTree::create(TreeSpec{shape.n, shape.d, seed, 50, order});
                REQUIRE(tree);
                for (Algorithm a : kAllAlgorithms) {
                    for (bool use_tt : {false, true}) {
                        for (bool ordering : {false, true}) {
                            TranspositionTable tt(1);
                            NaturalCtx<TreeNode> ctx(NoEval{}, NaturalOrder{ordering}, use_tt ? &tt : nullptr);
                            const auto r = run_algorithm(a, ctx, TreeNode::root(**tree), shape.d, -ctx.kInfinity,
                                                         ctx.kInfinity, 0);
                            CAPTURE(algorithm_name(a));
                            CAPTURE(shape.n);
                            CAPTURE(shape.d);
                            REQUIRE(r.value == (*tree)->value(0));
                            if (shape.d > 0) {
                                REQUIRE(r.best_move != kNoMove);
                                CHECK(-(*tree)->value((*tree)->child(0, r.best_move)) == r.value);
                            }
                        }
                    }
                }
            }
        }
    }
}
