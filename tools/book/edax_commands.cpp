#include "tools/book/edax_commands.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

#include "engine/book/book_file.hpp"
#include "engine/book/edax_import.hpp"
#include "engine/core/replace_file.hpp"
#include "engine/eval/weights/weights_file.hpp"
#include "tools/book/book_tool.hpp"

namespace reversi::book_tool {

namespace {

// Edax books hold up to millions of positions (about 60 bytes each).
constexpr std::size_t kMaxEdaxBookBytes = std::size_t{1} << 30;

book::EdaxDate today() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    book::EdaxDate d;
    d.year = static_cast<std::int16_t>(tm.tm_year + 1900);
    d.month = static_cast<std::int8_t>(tm.tm_mon + 1);
    d.day = static_cast<std::int8_t>(tm.tm_mday);
    d.hour = static_cast<std::int8_t>(tm.tm_hour);
    d.minute = static_cast<std::int8_t>(tm.tm_min);
    d.second = static_cast<std::int8_t>(tm.tm_sec);
    return d;
}

int fail(const std::string& message) {
    std::fprintf(stderr, "reversi-book: %s\n", message.c_str());
    return 1;
}

}  // namespace

int export_edax(const std::string& book_path, const std::string& out_path, int level) {
    auto loaded = book::load_book_file(book_path);
    if (!loaded) return fail(loaded.error().message);
    book::EdaxBookSettings settings;
    settings.level = level;
    settings.date = today();
    const auto bytes = book::encode_edax_book(*loaded, settings);
    if (auto written = replace_file(out_path, bytes, "Edax book"); !written) return fail(written.error().message);
    std::fprintf(stderr, "reversi-book: %s: %zu positions, %zu bytes (Edax book, level %d)\n", out_path.c_str(),
                 loaded->size(), bytes.size(), level);
    return 0;
}

int import_edax(const EdaxImportSettings& s) {
    auto bytes = eval::read_weights_bytes(s.edax_path, kMaxEdaxBookBytes, s.edax_path, "Edax book");
    if (!bytes) return fail(bytes.error().message);
    auto positions = book::decode_edax_book(*bytes, s.edax_path);
    if (!positions) return fail(positions.error().message);
    auto opened = open_book(s.path);
    if (!opened) return fail(opened.error().message);
    book::Book book = std::move(*opened);
    Searcher searcher(s.hash_mib);
    warn_if_no_table(searcher.hash_size(), s.hash_mib);
    book::use_engine_search_options(searcher, s.threads);
    std::fprintf(stderr, "reversi-book: %s: %zu Edax positions; evaluation %s; depth %d, exact at %d empties\n",
                 s.edax_path.c_str(), positions->size(), searcher.evaluation_status().c_str(), s.leaf.depth,
                 s.leaf.solve_empties);
    const auto evaluate = book::searched_evaluator(searcher, s.leaf, g_stop);
    const auto start = Clock::now();
    auto last = start;
    const auto report = book::import_edax_positions(
        book, *positions, evaluate,
        [&](const book::EdaxImportReport& r) {
            if (seconds_since(last) < 5) return;
            last = Clock::now();
            std::fprintf(stderr, "reversi-book: %zu positions added, %zu searches, %.0f s\n", r.added, r.evaluations,
                         seconds_since(start));
        },
        &g_stop);
    if (auto saved = book::save_book_file(book, s.path); !saved) return fail(saved.error().message);
    std::fprintf(stderr,
                 "reversi-book: %s %s: %zu positions in the book; of the %zu Edax positions %zu added, %zu already "
                 "there, %zu without a move; %zu searches, %.1f s\n",
                 report.stopped ? "stopped, saved" : "done,", s.path.c_str(), book.size(), report.read, report.added,
                 report.already, report.no_move, report.evaluations, seconds_since(start));
    return 0;
}

}  // namespace reversi::book_tool
