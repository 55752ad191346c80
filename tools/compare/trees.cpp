#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/games/synthetic_tree.hpp"
#include "engine/search/run_algorithm.hpp"
#include "tools/compare/compare.hpp"

namespace reversi::compare {

namespace {

struct NoEval {
    int operator()(const TreeNode&) const noexcept { return 0; }
};

}  // namespace

std::string synthetic_tree_ratios() {
    std::ostringstream out;
    out << "synthetic uniform trees: alpha-beta leaves / minimal tree n^ceil(d/2) + n^floor(d/2) - 1"
           " (fail-soft, no table, mean of 5 seeds)\n";
    out << "   n   d   minimal tree     perfect        good      random\n";
    struct Shape {
        int n, d;
    };
    for (const Shape s : {Shape{2, 10}, Shape{3, 8}, Shape{4, 6}, Shape{8, 5}, Shape{10, 4}, Shape{16, 4}}) {
        const double minimal = std::pow(s.n, (s.d + 1) / 2) + std::pow(s.n, s.d / 2) - 1;
        char line[160];
        std::snprintf(line, sizeof line, "%4d %3d %14.0f", s.n, s.d, minimal);
        out << line;
        for (TreeOrder order : {TreeOrder::Perfect, TreeOrder::Good, TreeOrder::Natural}) {
            double sum = 0;
            for (std::uint64_t seed = 1; seed <= 5; ++seed) {
                auto tree = UniformTree::create(TreeSpec{s.n, s.d, seed, 1000, order, 0.8});
                if (!tree) return out.str() + "\n" + tree.error().message + "\n";
                SearchContext<TreeNode, NoEval, NaturalOrder> ctx(NoEval{}, NaturalOrder{false});
                (void)run_algorithm(Algorithm::AlphaBeta, ctx, TreeNode::root(**tree), s.d, -ctx.kInfinity,
                                    ctx.kInfinity, 0);
                sum += static_cast<double>(ctx.leaves);
            }
            std::snprintf(line, sizeof line, " %11.3f", sum / 5 / minimal);
            out << line;
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace reversi::compare
