// PLACEHOLDER implementation of the Searcher facade: iterative deepening over a plain fail-soft
// alpha-beta with disc-count evaluation, no TT. It honours the limits, the stop flag and the callbacks so
// that front ends can be built against the real interface; the search work replaces this file.
#include "engine/search/searcher.hpp"

#include <algorithm>
#include <thread>

namespace reversi {

struct Searcher::Impl {
    std::size_t hash_mib;
    SearchOptions options;
};

Searcher::Searcher(std::size_t hash_mib) : impl_(std::make_unique<Impl>(Impl{hash_mib, {}})) {}
Searcher::~Searcher() = default;
bool Searcher::set_hash_size(std::size_t mib) { impl_->hash_mib = mib; return true; }
std::size_t Searcher::hash_size() const noexcept { return impl_->hash_mib; }
void Searcher::set_options(const SearchOptions& options) { impl_->options = options; }
const SearchOptions& Searcher::options() const noexcept { return impl_->options; }
void Searcher::clear() {}

namespace {

using Clock = std::chrono::steady_clock;

struct Context {
    const SearchLimits& limits;
    const std::atomic<bool>& stop;
    Clock::time_point start;
    std::uint64_t nodes = 0, leaves = 0;
    bool aborted = false;

    bool should_stop() {
        if (aborted) return true;
        if (stop.load(std::memory_order_relaxed)) aborted = true;
        if (limits.nodes && nodes >= *limits.nodes) aborted = true;
        if (limits.hard_time && (nodes & 1023) == 0 && Clock::now() - start >= *limits.hard_time) aborted = true;
        return aborted;
    }
};

int alphabeta(Context& ctx, const Position& pos, int depth, int alpha, int beta, std::vector<Move>& pv) {
    ++ctx.nodes;
    pv.clear();
    if (pos.is_over()) { ++ctx.leaves; return pos.final_score(); }
    if (depth == 0) { ++ctx.leaves; return popcount(pos.player) - popcount(pos.opponent); }
    if (ctx.should_stop()) return 0;
    const Bitboard moves = pos.moves();
    std::vector<Move> child_pv;
    if (!moves) {
        const int v = -alphabeta(ctx, pos.pass(), depth, -beta, -alpha, child_pv);
        pv.push_back(kPass);
        pv.insert(pv.end(), child_pv.begin(), child_pv.end());
        return v;
    }
    int best = -65;
    for (int sq : squares(moves)) {
        const int v = -alphabeta(ctx, pos.play(sq), depth - 1, -beta, -std::max(alpha, best), child_pv);
        if (ctx.aborted) return best;
        if (v > best) {
            best = v;
            pv.assign(1, static_cast<Move>(sq));
            pv.insert(pv.end(), child_pv.begin(), child_pv.end());
            if (best >= beta) break;
        }
    }
    return best;
}

}  // namespace

SearchResult Searcher::search(const Position& pos, const SearchLimits& limits, const SearchCallbacks& callbacks,
                              const std::atomic<bool>& stop) {
    Context ctx{limits, stop, Clock::now()};
    SearchResult result;
    result.algorithm = impl_->options.algorithm;
    if (pos.is_over()) return result;
    if (!pos.moves()) {
        result.best_move = kPass;
        result.pv = {kPass};
    } else {
        result.best_move = static_cast<Move>(first_square(pos.moves()));
    }
    const int empties = pos.empty_count();
    const int max_depth = (limits.solve || limits.wld) ? empties : std::min(limits.depth.value_or(60), empties);
    for (int depth = 1; depth <= max_depth; ++depth) {
        std::vector<Move> pv;
        const int score = alphabeta(ctx, pos, depth, -65, 65, pv);
        if (ctx.aborted) break;
        result.best_move = pv.empty() ? result.best_move : pv.front();
        result.score = score;
        result.depth = depth;
        result.pv = pv;
        result.exact = depth >= empties;
        IterationReport report;
        report.depth = depth;
        report.selective_depth = depth;
        report.score = score;
        report.exact = result.exact;
        report.nodes = ctx.nodes;
        report.leaves = ctx.leaves;
        report.time = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - ctx.start);
        report.pv = pv;
        if (callbacks.on_iteration) callbacks.on_iteration(report);
        if (limits.soft_time && Clock::now() - ctx.start >= *limits.soft_time) break;
    }
    while (limits.infinite && !stop.load()) {
        if (limits.hard_time && Clock::now() - ctx.start >= *limits.hard_time) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    result.nodes = ctx.nodes;
    result.leaves = ctx.leaves;
    result.time = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - ctx.start);
    return result;
}

}  // namespace reversi
