#include <doctest/doctest.h>

#include <set>

#include "engine/board/variant.hpp"
#include "engine/games/othello_game.hpp"
#include "engine/games/synthetic_tree.hpp"
#include "engine/games/tictactoe.hpp"

using namespace reversi;

namespace {

template <GameState S>
long long count_tree(const S& s) {
    MoveList list;
    s.generate_moves(list);
    long long nodes = 1;
    for (Move m : list) nodes += count_tree(s.play(m));
    return nodes;
}

int negamax(const TicTacToe& s) {
    if (s.is_over()) return s.final_score();
    MoveList list;
    s.generate_moves(list);
    int best = -2;
    for (Move m : list) best = std::max(best, -negamax(s.play(m)));
    return best;
}

void collect(const TicTacToe& s, std::set<std::pair<int, int>>& seen) {
    if (!seen.insert({s.player, s.opponent}).second) return;
    MoveList list;
    s.generate_moves(list);
    for (Move m : list) collect(s.play(m), seen);
}

}  // namespace

TEST_CASE("tic-tac-toe: the full game tree has 549,946 nodes and 5,478 distinct positions, value 0") {
    const TicTacToe empty{};
    CHECK(count_tree(empty) == 549946);
    std::set<std::pair<int, int>> seen;
    collect(empty, seen);
    CHECK(seen.size() == 5478);
    CHECK(negamax(empty) == 0);
}

TEST_CASE("tic-tac-toe: a won position is over and scored for the winner") {
    TicTacToe s{};
    for (Move m : {0, 3, 1, 4, 2}) s = s.play(m);  // X takes the top row
    CHECK(s.is_over());
    CHECK(s.final_score() == -1);  // O to move, X has won
    MoveList list;
    s.generate_moves(list);
    CHECK(list.empty());
}

TEST_CASE("synthetic tree: node values are the negamax of the leaves") {
    auto tree = UniformTree::create(TreeSpec{3, 4, 99, 50, TreeOrder::Natural});
    REQUIRE(tree);
    const UniformTree& t = **tree;
    CHECK(t.node_count() == 1 + 3 + 9 + 27 + 81);
    const TreeNode root = TreeNode::root(t);
    CHECK(count_tree(root) == 121);
    // Recompute the root value by a plain recursion over the game interface.
    auto nega = [&](auto&& self, const TreeNode& n) -> int {
        if (n.is_over()) return n.final_score();
        MoveList list;
        n.generate_moves(list);
        int best = -TreeNode::kScoreBound;
        for (Move m : list) best = std::max(best, -self(self, n.play(m)));
        return best;
    };
    CHECK(nega(nega, root) == t.value(0));
}

TEST_CASE("synthetic tree: the perfect-ordering oracle puts the best child first") {
    auto tree = UniformTree::create(TreeSpec{4, 5, 7, 100, TreeOrder::Perfect});
    REQUIRE(tree);
    const TreeNode root = TreeNode::root(**tree);
    MoveList list;
    root.generate_moves(list);
    REQUIRE(list.size() == 4);
    CHECK(-(*tree)->value((*tree)->child(0, list[0])) == (*tree)->value(0));
    for (int i = 1; i < list.size(); ++i) {
        CHECK((*tree)->value((*tree)->child(0, list[i - 1])) <= (*tree)->value((*tree)->child(0, list[i])));
    }
}

TEST_CASE("synthetic tree: bad specifications are refused") {
    CHECK_FALSE(UniformTree::create(TreeSpec{0, 3}));
    CHECK_FALSE(UniformTree::create(TreeSpec{65, 1}));
    CHECK_FALSE(UniformTree::create(TreeSpec{10, 9}));
    CHECK_FALSE(UniformTree::create(TreeSpec{2, -1}));
}

TEST_CASE("othello state behind the interface: a lone pass when the side must pass") {
    Position pos;
    pos.player = square_bit(1);
    pos.opponent = square_bit(0);
    const OthelloState s{pos};
    MoveList list;
    s.generate_moves(list);
    REQUIRE(list.size() == 1);
    CHECK(list[0] == kPass);
    const OthelloState start{start_position()};
    start.generate_moves(list);
    CHECK(list.size() == 4);
}
