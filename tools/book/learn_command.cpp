#include "tools/book/learn_command.hpp"

#include <cstdio>

#include "engine/book/book_file.hpp"
#include "tools/book/book_tool.hpp"
#include "tools/book/games_file.hpp"

namespace reversi::book_tool {

namespace {

struct Totals {
    std::size_t games = 0, skipped = 0, added = 0, unsaved = 0, evaluations = 0;
};

bool save(const book::Book& b, const std::string& path) {
    if (auto saved = book::save_book_file(b, path); !saved) {
        std::fprintf(stderr, "reversi-book: %s\n", saved.error().message.c_str());
        return false;
    }
    return true;
}

// The games of every file, the unreadable ones reported and counted in `totals.skipped`.
Expected<std::vector<GameRecord>> read_all(const std::vector<std::string>& files, Totals& totals) {
    std::vector<GameRecord> games;
    for (const auto& file : files) {
        auto read = read_games_file(file);
        if (!read) return read.error();
        for (const auto& message : read->skipped) std::fprintf(stderr, "reversi-book: skipping %s\n", message.c_str());
        totals.skipped += read->skipped.size();
        for (auto& g : read->games) games.push_back(std::move(g));
    }
    return games;
}

}  // namespace

int learn_games(const LearnSettings& s) {
    auto opened = open_book(s.path);
    if (!opened) return std::fprintf(stderr, "reversi-book: %s\n", opened.error().message.c_str()), 1;
    book::Book book = std::move(*opened);
    Totals totals;
    auto games = read_all(s.games_files, totals);
    if (!games) return std::fprintf(stderr, "reversi-book: %s\n", games.error().message.c_str()), 1;
    Searcher searcher(s.hash_mib);
    warn_if_no_table(searcher.hash_size(), s.hash_mib);
    book::use_engine_search_options(searcher, s.threads);
    std::fprintf(stderr, "reversi-book: %zu games; evaluation %s; depth %d, exact solve at %d empties or fewer\n",
                 games->size(), searcher.evaluation_status().c_str(), s.leaf.depth, s.leaf.solve_empties);
    const auto start = Clock::now();
    auto last_report = start;
    const auto search = book::searched_evaluator(searcher, s.leaf, g_stop);
    const book::PositionEvaluator evaluate = [&](const Position& pos) {
        const int v = search(pos);
        if (seconds_since(last_report) >= 5) {
            last_report = Clock::now();
            std::fprintf(stderr, "reversi-book: %zu games learned, %zu positions in the book, %zu searches, %.0f s\n",
                         totals.games, book.size(), totals.evaluations, seconds_since(start));
        }
        ++totals.evaluations;
        return v;
    };
    bool ok = true;
    for (const auto& game : *games) {
        if (g_stop.load(std::memory_order_relaxed)) break;
        auto learned = book::learn_game(book, game.start, game.moves, s.learn, evaluate, &g_stop);
        if (!learned) {
            std::fprintf(stderr, "reversi-book: skipping %s: %s\n", game.name.c_str(), learned.error().message.c_str());
            ++totals.skipped;
            continue;
        }
        totals.games += learned->stopped ? 0 : 1;
        totals.added += learned->added;
        totals.unsaved += learned->added;
        if (s.save_every != 0 && totals.unsaved >= s.save_every) {
            ok = save(book, s.path) && ok;
            totals.unsaved = 0;
        }
    }
    ok = save(book, s.path) && ok;
    const bool stopped = g_stop.load(std::memory_order_relaxed);
    std::fprintf(stderr,
                 "reversi-book: %s %s: %zu positions (%zu new) from %zu games (%zu skipped), %zu searches, %.1f s\n",
                 stopped ? "stopped, saved" : "done,", s.path.c_str(), book.size(), totals.added, totals.games,
                 totals.skipped, totals.evaluations, seconds_since(start));
    return ok ? 0 : 1;
}

}  // namespace reversi::book_tool
