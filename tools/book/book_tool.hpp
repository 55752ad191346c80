#pragma once
// What the reversi-book commands share: the Ctrl-C/SIGTERM flag, the clock, and opening a book file to grow
// (loaded when it exists, empty otherwise).
#include <atomic>
#include <chrono>
#include <string>

#include "engine/book/book.hpp"
#include "engine/core/expected.hpp"

namespace reversi::book_tool {

using Clock = std::chrono::steady_clock;

// Set by SIGINT and SIGTERM once install_stop_signals() has run.
extern std::atomic<bool> g_stop;
void install_stop_signals();

[[nodiscard]] double seconds_since(Clock::time_point start);

// The book at `path` ("continuing" on stderr), or an empty one when there is no file; an error for a file
// that cannot be read as a book.
[[nodiscard]] Expected<book::Book> open_book(const std::string& path);

// A warning on stderr when the searches' table got no memory (`table_mib` 0: the engine's search then runs
// on its smallest table, much slower) for the --hash asked.
void warn_if_no_table(std::size_t table_mib, std::size_t asked_mib);

}  // namespace reversi::book_tool
