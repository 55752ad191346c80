#include "protocol/uci/uci_frontend.hpp"

#include <chrono>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "engine/search/bench.hpp"
#include "protocol/session/stoppable_perft.hpp"
#include "protocol/text/printable.hpp"
#include "protocol/text/tokens.hpp"
#include "protocol/uci/info_format.hpp"
#include "protocol/uci/uci_search.hpp"

namespace reversi::uci {

using text::iequals;

namespace {

constexpr int kMaxRemoteBenchDepth = 12;  // 0.7 s here (bench 14: 2.2 s, each 2 plies about 3.7 times more)

constexpr const char* kHelp[] = {
    "commands (one per line; replies one per line):",
    "  uci                          -> id name, id author, option lines, uciok",
    "  isready                      -> readyok (answered at once, also while searching)",
    "  setoption name N value V     Hash Threads Algorithm Aspiration TT IterativeDeepening Ordering",
    "                               Eval (pattern|heuristic) EvalFile (path of pattern weights) MultiPV MoveOverhead",
    "                               Selectivity Ponder (bestmove M ponder R) Book BookFile BookRandomness",
    "  ucinewgame                   clear the hash table and history",
    "  position startpos [moves m1 m2 ...]  (a moves token may be a transcript: f5d6c3)",
    "  position board <64 squares> <side> [moves ...]",
    "  position variant <8x8|6x6|6x6-parallel|4x4|diamond|diamond-parallel> [board <64 squares> <side>] [moves ...]",
    "  position obf <OBF line>",
    "  go [depth N] [nodes N] [movetime MS] [btime MS] [wtime MS] [binc MS] [winc MS] [movestogo N]",
    "     [infinite] [solve] [wld] [searchmoves m ...] [algo NAME]   -> info ..., info string stats ..., bestmove M",
    "     with a clock or movetime, a book position is answered from the book (Book, BookFile)",
    "  go ponder [clocks, limits]   ponder (the expected reply played): no bestmove before ponderhit or stop",
    "  ponderhit                    the reply came: the pondering search goes on with the go ponder's clock",
    "  stop                         end the search; its bestmove follows",
    "  d                            draw the board, legal moves, board string, evaluation and moves",
    "  perft N                      count the move paths of N plies (a pass is a ply)",
    "  bench [depth]                search the bench positions; prints nodes, time and nps",
    "  nboard 2                     (as the first command) switch to the NBoard protocol",
    "  help                         this list",
    "  quit                         stop and exit",
    nullptr};

}  // namespace

const char* const* help_lines() noexcept { return kHelp; }

session::Status UciFrontend::handle(std::string_view line) {
    const auto received = std::chrono::steady_clock::now();  // a go's time limits count from here
    const auto tokens = text::split_tokens(line);
    if (tokens.empty()) return session::Status::Continue;
    const std::string command = text::lowercase(tokens[0]);
    if (command == "isready") {
        // Idle: readyok once the exact solver's table exists (allocated by a job when it does not), so that
        // the first timed move does not pay for it when no ucinewgame came before (see uci_search.cpp).
        // During a search, readyok at once.
        if (ctx_.busy()) {
            ctx_.send("readyok");
        } else {
            ctx_.when_endgame_ready([this] { ctx_.send("readyok"); });
        }
    } else if (command == "uci") {
        cmd_uci();
    } else if (command == "quit") {
        ctx_.stop_and_wait();
        return session::Status::Quit;
    } else if (command == "stop") {
        ctx_.stop_job();
    } else if (command == "go") {
        cmd_go(line, received);
    } else if (command == "position") {
        cmd_position(line);
    } else if (command == "setoption") {
        cmd_setoption(line);
    } else if (command == "ucinewgame") {
        ctx_.stop_and_wait();
        // Clearing 2 x Hash takes time: a job, so that a server's network thread never waits for it; the
        // commands after it (isready too) wait for it like for a loading EvalFile.
        ctx_.start_exclusive_job([this](const std::atomic<bool>&) {
            ctx_.searcher().clear();
            ctx_.searcher().prepare_endgame();  // before the clock runs (see uci_search.cpp)
        });
    } else if (command == "d") {
        cmd_display();
    } else if (command == "perft") {
        cmd_perft(line);
    } else if (command == "bench") {
        cmd_bench(line);
    } else if (command == "help") {
        cmd_help();
    } else if (command == "ponderhit") {
        cmd_ponderhit(received);
    } else if (command == "debug") {
        // Accepted and ignored (a UCI command without meaning here).
    } else {
        ctx_.send_error("unknown command " + text::quote(tokens[0]) + " (try help)");
    }
    return session::Status::Continue;
}

void UciFrontend::cmd_uci() {
    ctx_.send("id name " + ctx_.config().engine_name + " " REVERSI_VERSION);
    ctx_.send("id author the reversi authors");
    for (const auto& l : session::option_lines(ctx_.options(), ctx_.max_threads())) ctx_.send(l);
    ctx_.send("uciok");
}

void UciFrontend::cmd_setoption(std::string_view line) {
    auto tokens = text::split_tokens(line);
    tokens.erase(tokens.begin());
    auto assignment = parse_setoption(tokens);
    if (!assignment) return ctx_.send_error(assignment.error().message);
    auto next = session::assign_option(ctx_.options(), assignment->name, assignment->value);
    if (!next) return ctx_.send_error(next.error().message);
    auto applied = ctx_.set_options(*next);
    if (!applied) return ctx_.send_error(applied.error().message);
}

void UciFrontend::cmd_position(std::string_view line) {
    auto setup = parse_position(line);
    if (!setup) return ctx_.send_error(setup.error().message + "; the position is unchanged");
    ctx_.game = session::GameState{setup->start, setup->moves, setup->current};
}

void UciFrontend::cmd_go(std::string_view line, std::chrono::steady_clock::time_point received) {
    auto tokens = text::split_tokens(line);
    tokens.erase(tokens.begin());
    auto go = parse_go(tokens);
    if (!go) return ctx_.send_error(go.error().message + "; no search started");
    ponder_ = start_search(ctx_, *go, GoTiming{received, latency_});
}

void UciFrontend::cmd_ponderhit(std::chrono::steady_clock::time_point received) {
    if (!ponder_ || !ctx_.busy() || !ponder_->hit(received)) {
        return ctx_.send_error("ponderhit: no search is pondering (ponderhit follows a go ponder, before its stop)");
    }
    if (ponder_->plan().bounded) ctx_.mark_job_bounded();
}

void UciFrontend::cmd_display() {
    const Position& pos = ctx_.game.current;
    const std::string board = render_board(pos);
    std::size_t start = 0;
    while (start < board.size()) {
        const std::size_t end = board.find('\n', start);
        ctx_.send(board.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    std::string legal;
    for (int sq : squares(pos.moves())) {
        if (!legal.empty()) legal += ' ';
        legal += move_to_string(static_cast<Move>(sq));
    }
    if (legal.empty()) legal = pos.is_over() ? "none (game over)" : "pass";
    ctx_.send("board: " + to_board_string(pos));
    ctx_.send("variant: " + std::string(variant_info(variant_of(pos)).name) + ", " +
              (pos.side == Color::Black ? "black" : "white") + " to move, " + std::to_string(pos.empty_count()) +
              " empties");
    ctx_.send("legal: " + legal);
    ctx_.send("evaluation: " + std::string(ctx_.searcher().evaluation_name(pos)) + " (" +
              text::printable(ctx_.searcher().evaluation_status()) + ")");
    ctx_.send(session::book_moves_text(ctx_.book().get(), pos));
    ctx_.send("moves: " + (ctx_.game.moves.empty() ? std::string("(none)") : format_moves(ctx_.game.moves)));
}

void UciFrontend::cmd_perft(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.size() != 2) return ctx_.send_error("perft: expected one depth, e.g. perft 6");
    auto depth = text::parse_integer(tokens[1], 0, 30, "perft");
    if (!depth) return ctx_.send_error(depth.error().message);
    const Position pos = ctx_.game.current;
    const int d = static_cast<int>(*depth);
    ctx_.start_one_thread_job([this, pos, d](const std::atomic<bool>& stop) {
        const auto start = std::chrono::steady_clock::now();
        const auto nodes = session::stoppable_perft(pos, d, stop);
        const auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        if (!nodes) return ctx_.send("info string perft " + std::to_string(d) + " stopped");
        const auto nps = *nodes * 1000 / static_cast<std::uint64_t>(ms == 0 ? 1 : ms);
        ctx_.send("perft " + std::to_string(d) + " nodes " + std::to_string(*nodes) + " time " + std::to_string(ms) +
                  " nps " + std::to_string(nps));
    });
}

void UciFrontend::cmd_bench(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    BenchOptions options;
    if (tokens.size() > 2) return ctx_.send_error("bench: expected at most a depth, e.g. bench 8");
    if (tokens.size() == 2) {
        auto depth = text::parse_integer(tokens[1], 1, 60, "bench depth");
        if (!depth) return ctx_.send_error(depth.error().message);
        // bench cannot be stopped, and freeing a session waits for its job: a network client could hold
        // the server's thread for hours with a deep bench and a disconnect.
        if (ctx_.config().files.remote && *depth > kMaxRemoteBenchDepth) {
            return ctx_.send_error("bench: depth " + std::to_string(*depth) + " is more than " +
                                   std::to_string(kMaxRemoteBenchDepth) + ", the limit over the network");
        }
        options.depth = static_cast<int>(*depth);
    }
    // bench searches with tables of its own (the fingerprint's Hash, not the session's): on a server they
    // come out of the memory budget for as long as it runs, like a session's.
    const std::size_t need = session::session_memory_mib(options.hash_mib);
    auto memory = session::MemoryReservation::take(ctx_.config().budget, need);
    if (!memory) {
        return ctx_.send_error("bench: server memory budget exhausted (" +
                               std::to_string(ctx_.config().budget->available()) + " MiB left of " +
                               std::to_string(ctx_.config().budget->total()) + ", bench's tables need " +
                               std::to_string(need) + "); no bench run");
    }
    auto held = std::make_shared<session::MemoryReservation>(std::move(*memory));
    ctx_.start_one_thread_job([this, options, held](const std::atomic<bool>&) {
        const auto result = run_bench(options, [this](const std::string& s) { ctx_.send("info string bench " + s); });
        *held = session::MemoryReservation{};  // bench's tables are freed: give their MiB back
        const auto ms = static_cast<std::uint64_t>(result.time.count());
        ctx_.send("bench positions " + std::to_string(result.positions) + " nodes " + std::to_string(result.nodes) +
                  " time " + std::to_string(ms) + " nps " + std::to_string(result.nodes * 1000 / (ms == 0 ? 1 : ms)));
    });
}

void UciFrontend::cmd_help() {
    for (const char* const* l = help_lines(); *l; ++l) ctx_.send(std::string("info string ") + *l);
}

}  // namespace reversi::uci
