#include "tools/book/book_tool.hpp"

#include <csignal>
#include <cstdio>
#include <filesystem>

#include "engine/book/book_file.hpp"

namespace reversi::book_tool {

std::atomic<bool> g_stop{false};

namespace {

void on_signal(int) { g_stop.store(true, std::memory_order_relaxed); }

}  // namespace

void install_stop_signals() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

Expected<book::Book> open_book(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return book::Book{};
    auto loaded = book::load_book_file(path);
    if (!loaded) return loaded.error();
    std::fprintf(stderr, "reversi-book: continuing %s (%zu positions)\n", path.c_str(), loaded->size());
    return loaded;
}

void warn_if_no_table(std::size_t table_mib, std::size_t asked_mib) {
    if (table_mib == 0 && asked_mib > 0) {
        std::fprintf(stderr,
                     "reversi-book: warning: --hash %zu: the memory could not be allocated; the searches use the "
                     "smallest table (slower)\n",
                     asked_mib);
    }
}

}  // namespace reversi::book_tool
