#include "protocol/uci/uci_search.hpp"

#include <algorithm>
#include <optional>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "protocol/session/book_move.hpp"
#include "protocol/session/completed_search.hpp"
#include "protocol/time/time_manager.hpp"
#include "protocol/uci/info_format.hpp"

namespace reversi::uci {

namespace {

using Clock = std::chrono::steady_clock;

bool is_legal(const Position& pos, Move m) {
    if (m == kPass) return pos.must_pass();
    return m < kPass && (pos.moves() & square_bit(m)) != 0;
}

std::string game_over_text(const Position& pos) {
    const int black = popcount(pos.black()), white = popcount(pos.white());
    std::string s = "info string game over: black " + std::to_string(black) + " white " + std::to_string(white) +
                    ", final score " + std::to_string(pos.final_score()) + " for the side to move";
    return s;
}

// A search without depth, nodes, time, solve or wld would run to the end of the game: it only ends when
// stopped, like go infinite (at the end of stdin it is stopped).
bool ends_by_itself(const SearchLimits& l) {
    return l.depth || l.nodes || l.hard_time || l.soft_time || l.solve || l.wld;
}

std::chrono::milliseconds since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t);
}

SearchLimits limits_of(const GoCommand& go) {
    SearchLimits limits;
    limits.depth = go.depth;
    limits.nodes = go.nodes;
    limits.infinite = go.infinite;
    limits.solve = go.solve;
    limits.wld = go.wld;
    limits.search_moves = go.search_moves;
    return limits;
}

timing::ClockState clock_of(const GoCommand& go, const Position& pos, std::int64_t overhead_ms) {
    const bool black = pos.side == Color::Black;
    timing::ClockState clock;
    clock.remaining_ms = black ? go.black_time_ms : go.white_time_ms;
    clock.increment_ms = black ? go.black_inc_ms : go.white_inc_ms;
    clock.movestogo = go.movestogo;
    clock.movetime_ms = go.movetime_ms;
    clock.empties = pos.empty_count();
    clock.overhead_ms = overhead_ms;
    return clock;
}

// A game's move (a clock or movetime and nothing that asks for a search of its own) may come from the book.
bool may_use_book(const GoCommand& go) {
    const bool clock = go.movetime_ms || go.black_time_ms || go.white_time_ms;
    return clock && !go.ponder && !go.infinite && !go.depth && !go.nodes && !go.solve && !go.wld &&
           go.search_moves.empty() && !go.algorithm;
}

// The time limits of a `go` (counted from reading it), and the move to record with the latency tracker.
struct Planned {
    timing::TimeLimits limits;
    std::optional<timing::PlannedMove> clock_move;
};

Planned plan(const session::EngineContext& ctx, const GoCommand& go, const Position& pos,
             timing::LatencyTracker* latency) {
    if (go.infinite) return {};
    const bool has_clock = (pos.side == Color::Black ? go.black_time_ms : go.white_time_ms).has_value();
    const std::int64_t margin = latency && has_clock ? latency->margin_ms() : 0;
    const timing::ClockState clock =
        clock_of(go, pos, timing::planned_overhead(ctx.options().move_overhead_ms, margin, has_clock));
    Planned planned{timing::plan_move_time(clock), std::nullopt};
    if (latency && planned.limits.hard) {
        planned.clock_move =
            timing::PlannedMove{pos.side == Color::Black ? 0 : 1, clock.empties, clock.remaining_ms.value_or(-1),
                                clock.increment_ms, planned.limits.hard->count()};
    }
    spdlog::debug("go{}: {} empties, hard time {} ms, adaptive margin {} ms", go.ponder ? " ponder" : "", clock.empties,
                  planned.limits.hard ? planned.limits.hard->count() : -1, margin);
    return planned;
}

// The lines one iteration reports: MultiPV, at most the root moves.
int lines_per_iteration(const Position& pos, const GoCommand& go, int multipv) {
    const int roots = go.search_moves.empty() ? popcount(pos.moves()) : static_cast<int>(go.search_moves.size());
    return std::max(1, std::min(multipv, roots));
}

// One search job: what it needs is copied from the reader's state when the go is read.
struct SearchJob {
    session::EngineContext* ctx = nullptr;
    Position pos;
    SearchLimits base;
    timing::TimeLimits planned;
    GoTiming timing;
    bool multipv = false;
    int lines = 1;             // reports per iteration
    bool ponder_move = false;  // the Ponder option: bestmove names the expected reply
    std::shared_ptr<PonderControl> ponder;

    void operator()(const std::atomic<bool>& stop) const;

private:
    // The result lines sent so far: `info string wld ...` and `info string exact score ...`, each once.
    struct ResultLines {
        bool wld = false;
        bool exact = false;
    };
    [[nodiscard]] SearchCallbacks callbacks(ResultLines& sent) const;
    [[nodiscard]] SearchResult run(const SearchLimits& limits, const std::atomic<bool>& stop) const;
};

SearchCallbacks SearchJob::callbacks(ResultLines& sent) const {
    SearchCallbacks callbacks;
    callbacks.on_iteration = [this, &sent](const IterationReport& r) {
        ctx->send(format_iteration(r, multipv));
        // The position's result, once: the first report that proves it is MultiPV line 1 (the later lines
        // give their moves' results; a script that read the last verdict took the worst line's, "loss").
        if (r.wld) {
            if (!sent.wld)
                ctx->send(std::string("info string wld ") + (r.score > 0 ? "win" : r.score < 0 ? "loss" : "draw"));
            sent.wld = true;
        } else if (r.exact && !sent.exact) {
            ctx->send("info string exact score " + std::to_string(r.score) + " discs");
            sent.exact = true;
        }
        // After ponderhit the soft limit is checked here (the search's own limits were fixed without time).
        // Progress and bound reports inside an exact solve are not completed iterations: they never stop it.
        const bool completed = !r.progress && r.bound == Bound::Exact;
        if (ponder && completed && r.multipv >= lines && ponder->past_soft_limit(Clock::now(), r.soft_limit_factor))
            ctx->stop_job();
    };
    return callbacks;
}

SearchResult SearchJob::run(const SearchLimits& limits, const std::atomic<bool>& stop) const {
    ResultLines sent;
    try {
        return session::search_completed(ctx->searcher(), pos, limits, callbacks(sent), stop);
    } catch (const std::exception& e) {  // e.g. no thread left for a helper: still one bestmove per go
        spdlog::error("search failed: {}", e.what());
        ctx->send_error(std::string("internal error in the search: ") + e.what() + "; playing a legal move");
    }
    SearchResult failed;
    failed.best_move = kNoMove;
    return failed;
}

void SearchJob::operator()(const std::atomic<bool>& stop) const {
    struct EndPonder {  // whatever happens, the ponderhit timer is gone when the job ends
        PonderControl* control;
        ~EndPonder() {
            if (control) control->end();
        }
    } end_ponder{ponder.get()};
    // A timed search allocates the exact solver's table first, unless ucinewgame did (once per session
    // and Hash size): it counts against this move, whose limits shrink by it, not against the first
    // exact solve late in the game, and it is no sign of latency. (A pondering search does it on the
    // opponent's time.)
    const auto prepare_start = Clock::now();
    if (planned.hard) ctx->searcher().prepare_endgame();
    const auto one_time = since(prepare_start);
    SearchLimits limits = base;
    if (!ponder) {
        const timing::TimeLimits late = timing::limits_after(planned, since(timing.received));
        limits.soft_time = late.soft;
        limits.hard_time = late.hard;
    }
    SearchResult result = run(limits, stop);
    // A pondering search answers only after ponderhit or stop (it waits here when it ended first).
    const auto hit = ponder ? ponder->wait_for_answer() : std::nullopt;
    if (base.infinite && !ponder) ctx->wait_for_stop();  // go infinite: the bestmove only after `stop`
    if (!is_legal(pos, result.best_move)) {
        if (result.best_move != kNoMove) {
            spdlog::error("search returned the illegal move {}; playing a legal one", move_to_string(result.best_move));
        }
        result.best_move = session::fallback_move(pos);
        result.pv = {result.best_move};
    }
    ctx->send(format_stats(result));
    ctx->send(bestmove_line(pos, result, ponder_move));
    if (timing.latency && planned.hard) {
        if (!ponder) timing.latency->on_answer(since(timing.received).count(), one_time.count());
        if (ponder && hit) timing.latency->on_answer(since(*hit).count());
    }
}

}  // namespace

std::string bestmove_line(const Position& pos, const SearchResult& result, bool with_ponder) {
    std::string line = "bestmove " + move_to_string(result.best_move);
    if (!with_ponder || result.pv.size() < 2 || result.pv[0] != result.best_move) return line;
    const auto next = apply_move(pos, result.best_move);
    if (!next || next->is_over() || !is_legal(*next, result.pv[1])) return line;
    return line + " ponder " + move_to_string(result.pv[1]);
}

namespace {

// A go answered without a search: an illegal searchmoves (an error, no bestmove), a finished game
// (bestmove none), or a book move. True when it was.
bool answered_without_search(session::EngineContext& ctx, const GoCommand& go, const Position& pos,
                             const SearchOptions& options) {
    for (Move m : go.search_moves) {
        if (!is_legal(pos, m)) {
            ctx.send_error("go searchmoves: '" + move_to_string(m) + "' is not legal in this position");
            return true;
        }
    }
    if (pos.is_over()) {
        ctx.send(game_over_text(pos));
        SearchResult none;
        none.algorithm = options.algorithm;
        ctx.send(format_stats(none));
        ctx.send("bestmove none");
        return true;
    }
    if (may_use_book(go)) {
        if (const auto answer = session::book_move(ctx.book().get(), ctx.options(), pos, ctx.book().next_random())) {
            ctx.send(session::book_info_line(*answer));
            ctx.send("bestmove " + move_to_string(answer->move));
            return true;
        }
    }
    return false;
}

// A go whose job got no thread: still one bestmove, a legal move, after the error.
void answer_without_thread(session::EngineContext& ctx, const Position& pos, const SearchOptions& options,
                           const std::exception& e) {
    spdlog::error("go: no search started: {}", e.what());
    ctx.send_error(std::string("go: no thread for the search (") + e.what() + "); playing a legal move");
    SearchResult none;
    none.algorithm = options.algorithm;
    none.best_move = session::fallback_move(pos);
    none.pv = {none.best_move};
    ctx.send(format_stats(none));
    ctx.send(bestmove_line(pos, none, false));
}

}  // namespace

std::shared_ptr<PonderControl> start_search(session::EngineContext& ctx, const GoCommand& go, const GoTiming& timing) {
    ctx.stop_and_wait();
    const Position pos = ctx.game.current;
    SearchOptions options = ctx.options().search;
    if (go.algorithm) options.algorithm = *go.algorithm;
    if (answered_without_search(ctx, go, pos, options)) return nullptr;
    const Planned planned = plan(ctx, go, pos, timing.latency.get());
    if (planned.clock_move && !go.ponder) timing.latency->on_go(*planned.clock_move);  // ponder: at ponderhit
    ctx.use_search_options(options);
    SearchJob job;
    job.ctx = &ctx;
    job.pos = pos;
    job.base = limits_of(go);
    job.planned = planned.limits;
    job.timing = timing;
    job.multipv = options.multipv > 1;
    job.lines = lines_per_iteration(pos, go, options.multipv);
    job.ponder_move = ctx.options().ponder;
    const bool bounded = !go.infinite && (ends_by_itself(job.base) || planned.limits.hard || planned.limits.soft);
    try {
        if (!go.ponder) {
            ctx.start_job(std::move(job), !bounded);
            return nullptr;
        }
        job.ponder = std::make_shared<PonderControl>(
            PonderPlan{planned.limits, timing.received, bounded, planned.clock_move, timing.latency},
            [&ctx] { ctx.stop_job(); });
        auto control = job.ponder;
        ctx.start_job(std::move(job), true, [control] { control->release(); });
        return control;
    } catch (const std::exception& e) {
        answer_without_thread(ctx, pos, options, e);
        return nullptr;
    }
}

}  // namespace reversi::uci
