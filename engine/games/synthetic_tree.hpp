#pragma once
// A synthetic uniform game tree for checking search algorithms against theory: every inner node has
// `branching` children, every leaf sits at `depth`, and a leaf's value (from the side to move at that
// leaf) comes from a seeded hash of its node number. Nodes are numbered breadth-first: the root is 0,
// child i of node x is x * branching + i + 1.
//
// Move order: children are generated as the order setting says. Natural: child 0, 1, ...; Perfect:
// best child first (children sorted by their exact negamax value, the perfect-ordering oracle); Good:
// the best child first with a given probability (seeded), the others in natural order.
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/core/expected.hpp"
#include "engine/games/game.hpp"

namespace reversi {

enum class TreeOrder : std::uint8_t { Natural, Perfect, Good };

struct TreeSpec {
    int branching = 3;
    int depth = 3;
    std::uint64_t seed = 1;
    int value_range = 100;  // leaf values in [-value_range, value_range]
    TreeOrder order = TreeOrder::Natural;
    double good_probability = 0.8;  // with TreeOrder::Good: chance that the best child comes first
};

class UniformTree {
public:
    // Fails when branching is not 1..64, depth is negative, or the tree has more than 2^24 nodes
    // (the oracle keeps the value of every node).
    [[nodiscard]] static Expected<std::shared_ptr<const UniformTree>> create(const TreeSpec& spec);

    [[nodiscard]] const TreeSpec& spec() const noexcept { return spec_; }
    // Exact negamax value of a node, from the side to move there.
    [[nodiscard]] int value(std::uint64_t node) const noexcept { return values_[node]; }
    [[nodiscard]] int leaf_value(std::uint64_t node) const noexcept;
    [[nodiscard]] std::uint64_t child(std::uint64_t node, int index) const noexcept {
        return node * static_cast<std::uint64_t>(spec_.branching) + static_cast<std::uint64_t>(index) + 1;
    }
    [[nodiscard]] std::uint64_t node_count() const noexcept { return values_.size(); }
    void order_children(std::uint64_t node, MoveList& list) const noexcept;

private:
    explicit UniformTree(const TreeSpec& spec);
    TreeSpec spec_;
    std::vector<int> values_;
};

// A node of a UniformTree behind the game interface. The move is the child index.
struct TreeNode {
    static constexpr int kScoreBound = 1 << 20;

    const UniformTree* tree = nullptr;
    std::uint64_t node = 0;
    int depth = 0;  // distance from the root

    [[nodiscard]] static TreeNode root(const UniformTree& t) noexcept { return TreeNode{&t, 0, 0}; }
    void generate_moves(MoveList& list) const noexcept {
        list.clear();
        if (is_over()) return;
        tree->order_children(node, list);
    }
    [[nodiscard]] TreeNode play(Move m) const noexcept { return TreeNode{tree, tree->child(node, m), depth + 1}; }
    [[nodiscard]] bool is_over() const noexcept { return depth >= tree->spec().depth; }
    [[nodiscard]] int final_score() const noexcept { return tree->leaf_value(node); }
    [[nodiscard]] std::uint64_t hash() const noexcept {
        return (node + 1) * 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(depth);
    }
    friend bool operator==(const TreeNode&, const TreeNode&) = default;
};
static_assert(GameState<TreeNode>);

}  // namespace reversi
