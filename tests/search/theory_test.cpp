// Counts and values that theory and the source articles fix exactly.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/board/variant.hpp"
#include "tests/search/search_helpers.hpp"

using namespace reversi;
using namespace reversi::testing;

namespace {

OthelloCtx othello_ctx(const HeuristicEvaluator& eval, MoveOrdering ordering, TranspositionTable* tt = nullptr,
                       const std::vector<Move>& fixed = {}) {
    return OthelloCtx(HeuristicCall{&eval}, OthelloOrder(ordering, fixed), tt);
}

}  // namespace

TEST_CASE("Knuth-Moore: alpha-beta with perfect ordering evaluates n^ceil(d/2) + n^floor(d/2) - 1 leaves") {
    for (int n : {2, 3, 5, 8}) {
        for (int d : {1, 2, 3, 4, 5, 6}) {
            if (std::pow(n, d) > 300000) continue;
            for (std::uint64_t seed : {1u, 2u, 3u}) {
                TreeSpec spec{n, d, seed, 1000, TreeOrder::Perfect};
                auto tree = UniformTree::create(spec);
                REQUIRE(tree);
                for (Algorithm a : {Algorithm::AlphaBeta, Algorithm::AlphaBetaHard}) {
                    NaturalCtx<TreeNode> ctx(NoEval{}, NaturalOrder{false});
                    const auto r = run_algorithm(a, ctx, TreeNode::root(**tree), d, -ctx.kInfinity, ctx.kInfinity, 0);
                    const auto expected = static_cast<std::uint64_t>(std::pow(n, (d + 1) / 2) + std::pow(n, d / 2) - 1);
                    CAPTURE(n);
                    CAPTURE(d);
                    CHECK(r.value == (*tree)->value(0));
                    CHECK(ctx.leaves == expected);
                }
            }
        }
    }
}

TEST_CASE("tic-tac-toe: value 0, plain minimax visits 549,946 nodes counting the root") {
    NaturalCtx<TicTacToe> ctx(NoEval{}, NaturalOrder{false});
    const auto r = run_algorithm(Algorithm::Minimax, ctx, TicTacToe{}, 9, -2, 2, 0);
    CHECK(r.value == 0);
    CHECK(ctx.nodes == 549946);
    CHECK(ctx.leaves == 255168);  // the number of complete games
    for (Algorithm a : kAllAlgorithms) {
        NaturalCtx<TicTacToe> c(NoEval{}, NaturalOrder{true});
        CHECK(run_algorithm(a, c, TicTacToe{}, 9, -2, 2, 0).value == 0);
    }
}

namespace {

// Solves a variant's start with every algorithm but minimax (the diamond's full tree has more than 200
// million nodes; minimax is checked on 4x4 and against the references elsewhere).
void check_solved_start(Variant variant, int black_value, bool both_tables, bool with_minimax) {
    const HeuristicEvaluator eval;
    const Position start = start_position(variant);
    REQUIRE(start.side == Color::Black);  // the value from the side to move is black's
    for (Algorithm a : kAllAlgorithms) {
        if (a == Algorithm::Minimax && !with_minimax) continue;
        for (bool use_tt : {true, false}) {
            if (!use_tt && !both_tables) continue;
            TranspositionTable tt(1);
            auto ctx = othello_ctx(eval, MoveOrdering::Normal, use_tt ? &tt : nullptr);
            const auto r = run_algorithm(a, ctx, OthelloState{start}, 64, -ctx.kInfinity, ctx.kInfinity, 0);
            CAPTURE(algorithm_name(a));
            CAPTURE(use_tt);
            CHECK(r.value == black_value);
            CHECK(r.complete);
            CHECK(r.best_move != kNoMove);
        }
    }
}

}  // namespace

TEST_CASE("4x4 solved from the start: -10 for black, every algorithm") {
    check_solved_start(Variant::Board4x4, -10, true, true);
    // White wins 11-3 with the two empty squares: check the disc count by playing the line out.
    const HeuristicEvaluator eval;
    Position pos = start_position(Variant::Board4x4);
    while (!pos.is_over()) {
        TranspositionTable tt(1);
        auto ctx = othello_ctx(eval, MoveOrdering::Normal, &tt);
        const auto r = run_algorithm(Algorithm::NegaScout, ctx, OthelloState{pos}, 64, -65, 65, 0);
        REQUIRE(r.best_move != kNoMove);
        pos = pos.play_move(r.best_move);
    }
    CHECK(popcount(pos.black()) == 3);
    CHECK(popcount(pos.white()) == 11);
}

TEST_CASE("diamond solved from the standard start: 0, every algorithm") {
    check_solved_start(Variant::Diamond, 0, false, false);
}

TEST_CASE("diamond-parallel solved: black wins by 10, every algorithm") {
    check_solved_start(Variant::DiamondParallel, 10, false, false);
    // Play the principal line out: black ends with 10 discs more (disc difference rule, no empties rule).
    const HeuristicEvaluator eval;
    Position pos = start_position(Variant::DiamondParallel);
    TranspositionTable tt(1);
    while (!pos.is_over()) {
        auto ctx = othello_ctx(eval, MoveOrdering::Normal, &tt);
        const auto r = run_algorithm(Algorithm::NegaScout, ctx, OthelloState{pos}, 64, -65, 65, 0);
        REQUIRE(r.best_move != kNoMove);
        pos = pos.play_move(r.best_move);
    }
    CHECK(popcount(pos.black()) - popcount(pos.white()) == 10);
}

TEST_CASE("mini-reversi article: fail-soft alpha-beta leaves on diamond 1,690,895 and diamond-parallel 898,585") {
    const HeuristicEvaluator eval;
    const std::vector<Move> order(kDiamondArticleOrder.begin(), kDiamondArticleOrder.end());
    struct Case {
        Variant variant;
        std::uint64_t leaves;
    };
    for (const Case c : {Case{Variant::Diamond, 1690895}, Case{Variant::DiamondParallel, 898585}}) {
        auto ctx = othello_ctx(eval, MoveOrdering::Fixed, nullptr, order);
        const auto r = run_algorithm(Algorithm::AlphaBeta, ctx, OthelloState{start_position(c.variant)}, 64,
                                     -ctx.kInfinity, ctx.kInfinity, 0);
        CAPTURE(variant_info(c.variant).name);
        MESSAGE("nodes " << ctx.nodes << " leaves " << ctx.leaves << " value " << r.value);
        CHECK(ctx.leaves == c.leaves);
    }
}

namespace {

// A stand-in null-window test on a position of value s that fails hard: it returns exactly the window
// edge it fails on (beta on a fail high, beta - 1 on a fail low), the worst case for the drivers.
struct FailHardTest {
    int value;
    int calls = 0;
    int operator()(int beta) {
        ++calls;
        return value >= beta ? beta : beta - 1;
    }
};

int mtd_bound(int f, int s) { return f < s ? s - f + 2 : f == s ? 2 : f - s + 1; }

}  // namespace

TEST_CASE("MTD(f): s - f + 2 null-window searches when f < s, 2 when f = s, f - s + 1 when f > s") {
    for (int s = -20; s <= 20; ++s) {
        for (int f = -25; f <= 25; ++f) {
            FailHardTest test{s};
            const auto r = mtd_driver(f, 1000, test, [] { return false; });
            CAPTURE(s);
            CAPTURE(f);
            CHECK(r.value == s);
            CHECK(r.searches == mtd_bound(f, s));  // fail hard: exactly the bound
            CHECK(test.calls == r.searches);
        }
    }
    // With real fail-soft alpha-beta on synthetic trees: the value, and never more than the bound.
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto tree = UniformTree::create(TreeSpec{4, 5, seed, 30, TreeOrder::Natural});
        REQUIRE(tree);
        const int s = (*tree)->value(0);
        for (int f = -35; f <= 35; f += 5) {
            for (bool use_tt : {false, true}) {
                TranspositionTable tt(1);
                NaturalCtx<TreeNode> ctx(NoEval{}, NaturalOrder{true}, use_tt ? &tt : nullptr);
                Move best = kNoMove;
                const auto r = mtdf(ctx, TreeNode::root(**tree), 5, f, best);
                CHECK(r.value == s);
                CHECK(r.searches <= mtd_bound(f, s));
                CHECK(best != kNoMove);
                CHECK(-(*tree)->value((*tree)->child(0, best)) == s);
            }
        }
    }
}

TEST_CASE("C*: at most ceil(log2(hi - lo + 1)) null-window searches (11 on [-1000, 1000]) with floor midpoints") {
    CHECK(floor_midpoint(-1000, 1000) == 0);
    CHECK(floor_midpoint(-3, 0) == -2);  // floor(-1.5), not the truncation -1
    CHECK(floor_midpoint(-1, 0) == -1);
    CHECK(floor_midpoint(-5, -4) == -5);
    CHECK(floor_midpoint(3, 4) == 3);
    {
        FailHardTest test{30};
        const auto r = cstar_driver(-1000, 1000, test, [] { return false; });
        CHECK(r.value == 30);
        CHECK(r.searches == 11);
    }
    for (auto [lo, hi] :
         {std::pair{-1000, 1000}, std::pair{-64, 64}, std::pair{-7, 3}, std::pair{-1, 0}, std::pair{5, 5}}) {
        const int bound = static_cast<int>(std::ceil(std::log2(static_cast<double>(hi - lo + 1))));
        for (int s = lo; s <= hi; ++s) {
            FailHardTest test{s};
            const auto r = cstar_driver(lo, hi, test, [] { return false; });
            CAPTURE(lo);
            CAPTURE(hi);
            CAPTURE(s);
            REQUIRE(r.value == s);
            REQUIRE(r.searches <= bound);
        }
    }
    // With real fail-soft alpha-beta on synthetic trees.
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto tree = UniformTree::create(TreeSpec{3, 6, seed, 1000, TreeOrder::Natural});
        REQUIRE(tree);
        NaturalCtx<TreeNode> ctx(NoEval{}, NaturalOrder{false});
        Move best = kNoMove;
        const auto r = cstar(ctx, TreeNode::root(**tree), 6, best);
        CHECK(r.value == (*tree)->value(0));
        CHECK(r.searches <= 21);  // [-2^20, 2^20]: ceil(log2(2^21 + 1)) = 22 at most; fail-soft helps
    }
}
