#pragma once
// The NBoard protocol front end (entered when a session's first command is `nboard <version>`):
//   set depth N | set game <GGF> | set contempt N | move <mv>[/eval[/time]] | hint N | go | ping N |
//   learn | analyze | quit
// replies: set myname, status, nodestats, search, ===, pong, analysis, learned. Evaluations are in discs
// from the side to move. Errors are reported as `status error: ...` and change nothing.
//
// `set myname` is sent once, when the session enters NBoard mode (the GUI takes the name from the last
// one it read; Edax and Ntest repeat it after `set depth` because their name carries the depth, ours
// does not). `set contempt 0` is accepted (draws score 0); any other contempt is refused with a status
// error: the search has no contempt. A search stopped by `ping` reports only what completed iterations
// found (session::search_completed): `go` always answers a legal move with a value, `hint` always sends its
// `search` lines (the moves not yet searched at depth 1).
//
// `learn` adds the game (set game, move) to the book of --book and saves the file (nboard_learn.cpp,
// docs/book.md "Learning"); without a book, or over TCP, it is ignored with a status line. Always `learned`.
#include <string_view>

#include "protocol/session/engine_context.hpp"
#include "protocol/session/status.hpp"
#include "protocol/text/printable.hpp"

namespace reversi::nboard {

class NboardFrontend {
public:
    // Sends `set myname`.
    explicit NboardFrontend(session::EngineContext& ctx);
    session::Status handle(std::string_view line);

private:
    void cmd_set(std::string_view line);
    void cmd_move(std::string_view line);
    void cmd_hint(std::string_view line);
    void cmd_go();
    void cmd_analyze();
    void cmd_learn();  // nboard_learn.cpp
    void error(const std::string& message) { ctx_.send("status error: " + text::printable(message)); }

    session::EngineContext& ctx_;
    int depth_ = 12;
};

// "F5" / "PA": NBoard's move form.
[[nodiscard]] std::string nboard_move(Move m);
// "-1.00": an evaluation in discs.
[[nodiscard]] std::string nboard_eval(int discs);
// The depth field of a `search` line: "12", or "12@95%" for a selective search of confidence 95 %
// (the form NBoard displays for Edax); plain when the selectivity is 100 (exact or full-width).
[[nodiscard]] std::string nboard_depth(int depth, int selectivity);

}  // namespace reversi::nboard
