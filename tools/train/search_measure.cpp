#include "tools/train/search_measure.hpp"

#include <algorithm>
#include <cstdlib>

#include "engine/search/move_ordering.hpp"
#include "engine/search/search_context.hpp"

namespace reversi::train {

namespace {

struct EvaluatorCall {
    const Evaluator* evaluator;
    int operator()(const OthelloState& s) const noexcept { return evaluator->evaluate(s.pos); }
};
using Context = SearchContext<OthelloState, EvaluatorCall, OthelloOrder>;

}  // namespace

FixedDepthSearch fixed_depth_negascout(const Position& pos, const Evaluator& evaluator, int depth,
                                       TranspositionTable& tt) {
    Context ctx(EvaluatorCall{&evaluator}, OthelloOrder(MoveOrdering::Normal), &tt, nullptr);
    FixedDepthSearch out;
    out.root =
        run_algorithm(Algorithm::NegaScout, ctx, OthelloState{pos}, depth, -Context::kInfinity, Context::kInfinity, 0);
    out.nodes = ctx.nodes;
    return out;
}

SearchAccuracy measure_search(const std::vector<ObfEntry>& entries, const Evaluator& evaluator, int depth) {
    SearchAccuracy out;
    TranspositionTable tt(16);
    double value_error = 0;
    double loss = 0;
    double nodes = 0;
    for (const auto& entry : entries) {
        const auto best = entry.best_score();
        if (!best || entry.move_scores.empty()) continue;
        tt.clear();
        const FixedDepthSearch search = fixed_depth_negascout(entry.position, evaluator, depth, tt);
        const RootSearch& r = search.root;
        const auto chosen = std::find_if(entry.move_scores.begin(), entry.move_scores.end(),
                                         [&](const auto& ms) { return ms.first == r.best_move; });
        if (chosen == entry.move_scores.end()) continue;  // not expected: every legal move is listed
        value_error += std::abs(r.value - *best);
        loss += *best - chosen->second;
        nodes += static_cast<double>(search.nodes);
        ++out.positions;
    }
    const double n = out.positions ? static_cast<double>(out.positions) : 1.0;
    out.value_mae = value_error / n;
    out.move_loss = loss / n;
    out.nodes = nodes / n;
    return out;
}

}  // namespace reversi::train
