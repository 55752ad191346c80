#include "protocol/uci/uci_search.hpp"

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "protocol/time/time_manager.hpp"
#include "protocol/uci/info_format.hpp"

namespace reversi::uci {

Move fallback_move(const Position& pos) noexcept {
    const Bitboard moves = pos.moves();
    if (moves) return static_cast<Move>(first_square(moves));
    return pos.is_over() ? kNoMove : kPass;
}

namespace {

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

}  // namespace

void start_search(session::EngineContext& ctx, const GoCommand& go) {
    ctx.stop_and_wait();
    const Position pos = ctx.game.current;
    for (Move m : go.search_moves) {
        if (!is_legal(pos, m)) {
            ctx.send_error("go searchmoves: '" + move_to_string(m) + "' is not legal in this position");
            return;
        }
    }
    SearchOptions options = ctx.options().search;
    if (go.algorithm) options.algorithm = *go.algorithm;
    if (pos.is_over()) {
        ctx.send(game_over_text(pos));
        SearchResult none;
        none.algorithm = options.algorithm;
        ctx.send(format_stats(none));
        ctx.send("bestmove none");
        return;
    }
    SearchLimits limits;
    limits.depth = go.depth;
    limits.nodes = go.nodes;
    limits.infinite = go.infinite;
    limits.solve = go.solve;
    limits.wld = go.wld;
    limits.search_moves = go.search_moves;
    const bool black = pos.side == Color::Black;
    timing::ClockState clock;
    clock.remaining_ms = black ? go.black_time_ms : go.white_time_ms;
    clock.increment_ms = black ? go.black_inc_ms : go.white_inc_ms;
    clock.movestogo = go.movestogo;
    clock.movetime_ms = go.movetime_ms;
    clock.empties = pos.empty_count();
    clock.overhead_ms = ctx.options().move_overhead_ms;
    if (!go.infinite) {
        const auto time = timing::plan_move_time(clock);
        limits.soft_time = time.soft;
        limits.hard_time = time.hard;
    }
    ctx.searcher().set_options(options);
    const bool multipv = options.multipv > 1;
    spdlog::debug("go: {} empties, algo {}, depth {}, hard time {} ms", clock.empties, algorithm_name(options.algorithm),
                  go.depth.value_or(0), limits.hard_time ? limits.hard_time->count() : -1);
    ctx.start_job([&ctx, pos, limits, multipv](const std::atomic<bool>& stop) {
        bool exact_sent = false;
        SearchCallbacks callbacks;
        callbacks.on_iteration = [&](const IterationReport& r) {
            ctx.send(format_iteration(r, multipv));
            if (r.wld) {
                ctx.send(std::string("info string wld ") + (r.score > 0 ? "win" : r.score < 0 ? "loss" : "draw"));
            } else if (r.exact && !exact_sent) {
                ctx.send("info string exact score " + std::to_string(r.score) + " discs");
                exact_sent = true;
            }
        };
        SearchResult result;
        try {
            result = ctx.searcher().search(pos, limits, callbacks, stop);
        } catch (const std::exception& e) {  // e.g. no thread left for a helper: still one bestmove per go
            spdlog::error("search failed: {}", e.what());
            ctx.send_error(std::string("internal error in the search: ") + e.what() + "; playing a legal move");
            result.best_move = kNoMove;
        }
        if (!is_legal(pos, result.best_move)) {
            if (result.best_move != kNoMove) {
                spdlog::error("search returned the illegal move {}; playing a legal one", move_to_string(result.best_move));
            }
            result.best_move = fallback_move(pos);
        }
        ctx.send(format_stats(result));
        ctx.send("bestmove " + move_to_string(result.best_move));
    }, go.infinite || !ends_by_itself(limits));
}

}  // namespace reversi::uci
