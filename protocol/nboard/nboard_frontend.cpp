#include "protocol/nboard/nboard_frontend.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "protocol/nboard/ggf.hpp"
#include "protocol/session/completed_search.hpp"
#include "protocol/text/printable.hpp"
#include "protocol/text/tokens.hpp"

namespace reversi::nboard {

using text::iequals;

std::string nboard_move(Move m) {
    if (m == kPass) return "PA";
    std::string s = move_to_string(m);
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string nboard_eval(int discs) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(discs));
    return buf;
}

std::string nboard_depth(int depth, int selectivity) {
    std::string s = std::to_string(depth);
    if (selectivity < kMaxSelectivityPercent) {
        s += '@';
        s += std::to_string(selectivity);
        s += '%';
    }
    return s;
}

namespace {

std::string seconds(std::chrono::milliseconds ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(ms.count()) / 1000.0);
    return buf;
}

// "", "/eval" or "/eval/time", each a decimal number (as NBoard sends them; either may be empty).
bool valid_move_suffix(std::string_view suffix) {
    int fields = 0;
    while (!suffix.empty()) {
        if (suffix.front() != '/' || ++fields > 2) return false;
        suffix.remove_prefix(1);
        const std::string_view field = suffix.substr(0, suffix.find('/'));
        double value = 0;
        const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
        if (!field.empty() && (ec != std::errc() || end != field.data() + field.size())) return false;
        suffix.remove_prefix(field.size());
    }
    return true;
}

std::string pv_text(const std::vector<Move>& pv) {
    std::string s;
    for (Move m : pv) s += nboard_move(m);
    return s;
}

std::string search_line(const std::vector<Move>& pv, int score, int depth, int selectivity) {
    return "search " + pv_text(pv) + " " + nboard_eval(score) + " 0 " + nboard_depth(depth, selectivity);
}

std::string nodestats_line(std::uint64_t nodes, std::chrono::milliseconds time) {
    return "nodestats " + std::to_string(nodes) + " " + seconds(time);
}

// The lines of a solve's progress (reports at depth >= the empties): a `search` line for a proved move or
// bound (NBoard has no bound notation: a lower bound shows as its value until the solve improves it) and,
// `with_nodestats`, a `nodestats` line (hint searches its moves one by one: its node count is the total, sent
// at the end). Midgame iterations send nothing (the answer follows them at once).
SearchCallbacks solve_progress_lines(session::EngineContext& ctx, const Position& pos, bool with_nodestats) {
    SearchCallbacks callbacks;
    const int empties = pos.empty_count();
    callbacks.on_iteration = [&ctx, empties, with_nodestats](const IterationReport& r) {
        if (r.depth < empties) return;
        if (!r.progress && !r.pv.empty()) ctx.send(search_line(r.pv, r.score, r.depth, r.selectivity));
        if (with_nodestats) ctx.send(nodestats_line(r.nodes, r.time));
    };
    return callbacks;
}

}  // namespace

NboardFrontend::NboardFrontend(session::EngineContext& ctx) : ctx_(ctx) {
    ctx_.send("set myname " + ctx_.config().engine_name);
}

session::Status NboardFrontend::handle(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.empty()) return session::Status::Continue;
    const std::string command = text::lowercase(tokens[0]);
    if (command == "ping") {
        ctx_.stop_and_wait();  // the stopped search's lines come before the pong
        const std::string n = tokens.size() > 1 ? std::string(tokens[1]) : "0";
        auto number = text::parse_integer(n, 0, INT64_MAX, "ping");
        // A ping is always answered (a GUI waits for its pong): an unreadable number with an error line first,
        // then echoed as it came (its printable form), as Edax does.
        if (!number) error(number.error().message);
        const std::string echo = number ? std::to_string(*number) : text::printable(n);
        // Idle now: the pong once the exact solver's table exists (allocated by a job when it does not), so
        // that the first timed go does not pay for it.
        ctx_.when_endgame_ready([this, pong = "pong " + echo] { ctx_.send(pong); });
    } else if (command == "quit") {
        ctx_.stop_and_wait();
        return session::Status::Quit;
    } else if (command == "set") {
        cmd_set(line);
    } else if (command == "move") {
        cmd_move(line);
    } else if (command == "hint") {
        cmd_hint(line);
    } else if (command == "go") {
        cmd_go();
    } else if (command == "learn") {
        cmd_learn();
    } else if (command == "analyze") {
        cmd_analyze();
    } else if (command == "nboard") {
        // Already in NBoard mode.
    } else {
        error("unknown command " + text::quote(tokens[0]));
    }
    return session::Status::Continue;
}

void NboardFrontend::cmd_set(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.size() < 2) return error("set: expected depth, game or contempt");
    if (iequals(tokens[1], "depth")) {
        if (tokens.size() != 3) return error("set depth: expected one number");
        auto d = text::parse_integer(tokens[2], 1, 60, "set depth");
        if (!d) return error(d.error().message);
        depth_ = static_cast<int>(*d);
    } else if (iequals(tokens[1], "contempt")) {
        if (tokens.size() != 3) return error("set contempt: expected one number");
        auto c = text::parse_integer(tokens[2], -6400, 6400, "set contempt");
        if (!c) return error(c.error().message);
        if (*c != 0) return error("set contempt: not supported, draws are scored 0 (contempt stays 0)");
    } else if (iequals(tokens[1], "game")) {
        auto game = parse_ggf(text::rest_after_tokens(line, 2));
        if (!game) return error(game.error().message + "; the game is unchanged");
        ctx_.stop_and_wait();
        ctx_.game = session::GameState{game->start, game->moves, game->current};
    } else {
        error("set: unknown setting " + text::quote(tokens[1]));
    }
}

void NboardFrontend::cmd_move(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.size() != 2) return error("move: expected one move, e.g. move F5 or move F5/-1.5/0.3");
    const std::string_view square = tokens[1].substr(0, tokens[1].find('/'));
    auto m = parse_move(square);
    if (!m) return error("move " + text::quote(tokens[1]) + ": not a move (a square a1..h8 or PA)");
    if (!valid_move_suffix(tokens[1].substr(square.size()))) {
        return error("move " + text::quote(tokens[1]) + ": expected MOVE[/eval[/time]] with numbers, e.g. F5/-1.5/0.3");
    }
    auto next = apply_move(ctx_.game.current, *m);
    if (!next) return error("move " + text::quote(tokens[1]) + ": " + next.error().message);
    ctx_.stop_and_wait();
    ctx_.game.current = *next;
    ctx_.game.moves.push_back(*m);
}

void NboardFrontend::cmd_go() {
    const Position pos = ctx_.game.current;
    const int depth = depth_;
    // A book position is answered from the book (docs/book.md), chosen here on the reader's thread.
    const auto book = session::book_move(ctx_.book().get(), ctx_.options(), pos, ctx_.book().next_random());
    auto job = [this, pos, depth, book](const std::atomic<bool>& stop) {
        ctx_.send("status thinking");
        if (pos.is_over()) {
            ctx_.send("status error: the game is over");
            ctx_.send("=== PA/" + nboard_eval(pos.final_score()) + "/0.00");
            ctx_.send("status");
            return;
        }
        if (book) {
            ctx_.send("=== " + nboard_move(book->move) + "/" + nboard_eval(book->value) + "/0.00");
            ctx_.send("status");
            return;
        }
        SearchLimits limits;
        limits.depth = depth;
        SearchResult r;
        try {
            r = session::search_completed(ctx_.searcher(), pos, limits, solve_progress_lines(ctx_, pos, true), stop);
        } catch (const std::exception& e) {  // e.g. no thread left for a helper: still the move the GUI waits for
            spdlog::error("search failed: {}", e.what());
            error(std::string("internal error in the search: ") + e.what() + "; playing a legal move");
            r.best_move = kNoMove;
        }
        Move best = r.best_move;
        if (best == kNoMove || (best != kPass && (best >= kPass || !(pos.moves() & square_bit(best))))) {
            best = session::fallback_move(pos);
        }
        ctx_.send(nodestats_line(r.nodes, r.time));
        ctx_.send("=== " + nboard_move(best) + "/" + nboard_eval(r.score) + "/" + seconds(r.time));
        ctx_.send("status");
    };
    try {
        ctx_.start_job(std::move(job));
    } catch (const std::exception& e) {  // no thread for the search: still a move, which the GUI waits for
        spdlog::error("go: no search started: {}", e.what());
        error(std::string("go: no thread for the search (") + e.what() + "); playing a legal move");
        const Move best = pos.is_over() ? kPass : session::fallback_move(pos);
        ctx_.send("=== " + nboard_move(best) + "/" + nboard_eval(pos.is_over() ? pos.final_score() : 0) + "/0.00");
        ctx_.send("status");
    }
}

void NboardFrontend::cmd_hint(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.size() != 2) return error("hint: expected the number of moves, e.g. hint 3");
    auto n = text::parse_integer(tokens[1], 1, 64, "hint");
    if (!n) return error(n.error().message);
    const Position pos = ctx_.game.current;
    const int depth = depth_;
    const auto wanted = static_cast<std::size_t>(*n);
    // A book position: its book moves with their values (`book MOVE EVAL 0 0`), best first, no search.
    if (ctx_.options().book && ctx_.book().get() != nullptr) {
        auto book_moves = ctx_.book().get()->moves(pos);
        if (!book_moves.empty()) {
            ctx_.stop_and_wait();
            if (book_moves.size() > wanted) book_moves.resize(wanted);
            for (const auto& m : book_moves) {
                ctx_.send("book " + nboard_move(m.square) + " " + nboard_eval(m.value) + " 0 0");
            }
            ctx_.send("status");
            return;
        }
    }
    ctx_.start_job([this, pos, depth, wanted](const std::atomic<bool>& stop) {
        ctx_.send("status thinking");
        std::vector<Move> moves;
        for (int sq : squares(pos.moves())) moves.push_back(static_cast<Move>(sq));
        if (moves.empty() && pos.must_pass()) moves.push_back(kPass);
        struct Line {
            int score;
            std::vector<Move> pv;
            int depth;
            int selectivity;
        };
        std::vector<Line> lines;
        std::uint64_t nodes = 0;
        std::chrono::milliseconds time{0};
        for (Move m : moves) {
            SearchLimits limits;  // once stopped, the moves left get a depth-1 value (their line says so)
            limits.depth = stop.load(std::memory_order_relaxed) ? 1 : depth;
            limits.search_moves = {m};
            // A solve (depth >= empties) sends each move's line as soon as it is proved.
            const SearchResult r =
                session::search_completed(ctx_.searcher(), pos, limits, solve_progress_lines(ctx_, pos, false), stop);
            nodes += r.nodes;
            time += r.time;
            std::vector<Move> pv = r.pv;
            if (pv.empty() || pv.front() != m) pv.assign(1, m);
            lines.push_back(Line{r.score, pv, r.depth, r.selectivity});
        }
        std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.score > b.score; });
        if (lines.size() > wanted) lines.resize(wanted);
        for (const Line& l : lines) {
            ctx_.send(search_line(l.pv, l.score, l.depth, l.selectivity));
        }
        ctx_.send(nodestats_line(nodes, time));
        ctx_.send("status");
    });
}

void NboardFrontend::cmd_analyze() {
    const session::GameState game = ctx_.game;
    const int depth = depth_;
    ctx_.start_job([this, game, depth](const std::atomic<bool>& stop) {
        ctx_.send("status analyzing");
        std::vector<Position> positions{game.start};
        for (Move m : game.moves) positions.push_back(positions.back().play_move(m));
        for (std::size_t i = positions.size(); i-- > 0;) {
            if (stop.load(std::memory_order_relaxed)) break;
            const Position& p = positions[i];
            int score = 0;
            if (p.is_over()) {
                score = p.final_score();
            } else {
                SearchLimits limits;
                limits.depth = depth;
                score = ctx_.searcher().search(p, limits, {}, stop).score;
                if (stop.load(std::memory_order_relaxed)) break;
            }
            ctx_.send("analysis " + std::to_string(i) + " " + nboard_eval(score));
        }
        ctx_.send("status");
    });
}

}  // namespace reversi::nboard
