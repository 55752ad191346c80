#include "engine/games/synthetic_tree.hpp"

#include <algorithm>
#include <string>

namespace reversi {

namespace {

std::uint64_t mix(std::uint64_t x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

Expected<std::shared_ptr<const UniformTree>> UniformTree::create(const TreeSpec& spec) {
    if (spec.branching < 1 || spec.branching > MoveList::kCapacity) {
        return make_error("synthetic tree: branching must be 1..64");
    }
    if (spec.depth < 0 || spec.value_range < 0 || spec.value_range > TreeNode::kScoreBound) {
        return make_error("synthetic tree: bad depth or value range");
    }
    std::uint64_t nodes = 1, level = 1;
    for (int d = 0; d < spec.depth; ++d) {
        level *= static_cast<std::uint64_t>(spec.branching);
        nodes += level;
        if (nodes > (1u << 24)) {
            return make_error("synthetic tree: more than 2^24 nodes (" + std::to_string(spec.branching) + "^" +
                              std::to_string(spec.depth) + ")");
        }
    }
    return std::shared_ptr<const UniformTree>(new UniformTree(spec));
}

UniformTree::UniformTree(const TreeSpec& spec) : spec_(spec) {
    std::uint64_t nodes = 1, level = 1, first_leaf = 0;
    for (int d = 0; d < spec.depth; ++d) {
        first_leaf = nodes;
        level *= static_cast<std::uint64_t>(spec.branching);
        nodes += level;
    }
    if (spec.depth == 0) first_leaf = 0;
    values_.resize(nodes);
    for (std::uint64_t node = nodes; node-- > 0;) {
        if (node >= first_leaf) {
            values_[node] = leaf_value(node);
            continue;
        }
        int best = -TreeNode::kScoreBound;
        for (int i = 0; i < spec.branching; ++i) best = std::max(best, -values_[child(node, i)]);
        values_[node] = best;
    }
}

int UniformTree::leaf_value(std::uint64_t node) const noexcept {
    const std::uint64_t span = 2 * static_cast<std::uint64_t>(spec_.value_range) + 1;
    return static_cast<int>(mix(node ^ mix(spec_.seed)) % span) - spec_.value_range;
}

void UniformTree::order_children(std::uint64_t node, MoveList& list) const noexcept {
    for (int i = 0; i < spec_.branching; ++i) list.push_back(static_cast<Move>(i));
    if (spec_.order == TreeOrder::Natural) return;
    // The best child for the side to move has the lowest value from the child's side.
    auto child_value = [&](Move m) { return values_[child(node, m)]; };
    if (spec_.order == TreeOrder::Perfect) {
        std::stable_sort(list.begin(), list.end(), [&](Move a, Move b) { return child_value(a) < child_value(b); });
        return;
    }
    const double draw = static_cast<double>(mix(node ^ spec_.seed ^ 0x5bd1e995ULL) >> 11) * 0x1.0p-53;
    if (draw < spec_.good_probability) {
        const Move* best =
            std::min_element(list.begin(), list.end(), [&](Move a, Move b) { return child_value(a) < child_value(b); });
        std::rotate(list.begin(), const_cast<Move*>(best), const_cast<Move*>(best) + 1);
    }
}

}  // namespace reversi
