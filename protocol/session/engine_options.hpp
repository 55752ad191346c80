#pragma once
// The session's settable options (UCI `setoption`): their declarations for the `uci` reply and the
// checked assignment. An assignment either succeeds completely or leaves the options unchanged.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/expected.hpp"
#include "engine/search/search_types.hpp"

namespace reversi::session {

// The library defaults with the engine's own selectivity and move ordering (the library's defaults are
// 100, off, and Normal).
[[nodiscard]] inline SearchOptions engine_search_options() {
    SearchOptions o;
    o.selectivity = kEngineSelectivityPercent;
    o.ordering = kEngineOrdering;
    return o;
}

struct EngineOptions {
    std::size_t hash_mib = 16;
    SearchOptions search = engine_search_options();  // algorithm, tt, iterative deepening, aspiration, ordering,
                                                     // threads, multipv, evaluation (Eval), selectivity
    std::string eval_file;  // EvalFile: pattern weights loaded by the session (empty: the embedded ones)
    int move_overhead_ms = 30;
    // Ponder: the GUI may send go ponder (UCI: GUIs set it when they ponder). The engine ponders whenever
    // it is sent go ponder; the option only adds the expected reply to bestmove (`bestmove f5 ponder d6`),
    // which clients that do not ponder never see.
    bool ponder = false;
    // The opening book (protocol/session/book_move.hpp, docs/book.md): Book answers a game's `go` from the
    // book when one is loaded (BookFile: read by the session; empty: none); BookRandomness N picks among
    // the book moves within N discs of the best (0: the best).
    bool book = true;
    std::string book_file;
    int book_randomness = 0;
};

inline constexpr std::size_t kMaxHashMib = 65536;
inline constexpr int kMaxThreads = 256;
inline constexpr int kMaxMultiPv = 64;
inline constexpr int kMaxMoveOverheadMs = 5000;
inline constexpr int kMaxBookRandomness = 64;

// One "option name ... type ..." line per option, with the current values as defaults. `max_threads` is
// the session's Threads maximum (a server's --max-threads is lower than kMaxThreads).
[[nodiscard]] std::vector<std::string> option_lines(const EngineOptions& options, int max_threads = kMaxThreads);

// Applies `name` = `value` to a copy of `options` and returns it; an unknown name or an out-of-range
// value is an error and nothing changes. (Hash is only range-checked here; the session reserves memory.)
[[nodiscard]] Expected<EngineOptions> assign_option(const EngineOptions& options, std::string_view name,
                                                    std::string_view value);

}  // namespace reversi::session
