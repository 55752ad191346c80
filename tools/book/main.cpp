// reversi-book: builds and inspects opening books (engine/book/). `build` grows a book by deviation from a
// position with the engine's own search at a fixed depth (an exact solve near the end), saving every N
// new positions; run again on the same file it continues. `show` prints a position's book moves.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/book/book_file.hpp"
#include "engine/book/deviation.hpp"
#include "engine/data/openings.hpp"
#include "engine/search/searcher.hpp"
#include "protocol/cli/command_line.hpp"

using namespace reversi;
using Clock = std::chrono::steady_clock;

namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop.store(true, std::memory_order_relaxed); }

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

Expected<Position> root_of(const std::string& transcript) {
    if (transcript.empty()) return start_position();
    return play_transcript(start_position(), transcript);
}

struct BuildSettings {
    std::string path;
    std::vector<Position> roots;  // grown one after the other
    book::DeviationOptions deviation;
    int depth = 12;
    int solve_empties = 20;
    std::size_t hash_mib = 64;
    int threads = 1;
    double time_limit_s = 0;  // 0: none
};

int build(const BuildSettings& s) {
    book::Book book;
    if (std::filesystem::exists(s.path)) {
        auto loaded = book::load_book_file(s.path);
        if (!loaded) {
            std::fprintf(stderr, "reversi-book: %s\n", loaded.error().message.c_str());
            return 1;
        }
        book = std::move(*loaded);
        std::fprintf(stderr, "reversi-book: continuing %s (%zu positions)\n", s.path.c_str(), book.size());
    }
    Searcher searcher(s.hash_mib);
    SearchOptions options;
    options.selectivity = kEngineSelectivityPercent;
    options.ordering = kEngineOrdering;
    options.threads = s.threads;
    searcher.set_options(options);
    std::fprintf(stderr, "reversi-book: evaluation %s; depth %d, exact solve at %d empties or fewer\n",
                 searcher.evaluation_status().c_str(), s.depth, s.solve_empties);
    const std::atomic<bool> never{false};
    auto evaluate = [&](const Position& pos) {
        SearchLimits limits;
        limits.depth = s.depth;
        limits.solve = pos.empty_count() <= s.solve_empties;
        return searcher.search(pos, limits, {}, never).score;
    };
    const auto start = Clock::now();
    auto last_report = start;
    std::atomic<bool> stop{false};
    book::GrowthCallbacks callbacks;
    bool save_failed = false;
    callbacks.save = [&](const book::Book& b) {
        if (auto saved = book::save_book_file(b, s.path); !saved) {
            std::fprintf(stderr, "reversi-book: %s\n", saved.error().message.c_str());
            save_failed = true;
            stop = true;
        }
    };
    callbacks.on_progress = [&](const book::GrowthReport& r) {
        if (g_stop.load(std::memory_order_relaxed) || (s.time_limit_s > 0 && seconds_since(start) >= s.time_limit_s)) {
            stop = true;
        }
        if (seconds_since(last_report) >= 5 || stop) {
            last_report = Clock::now();
            std::fprintf(stderr, "reversi-book: %zu positions (%zu new), %zu searches, %.0f s\n", r.positions, r.added,
                         r.evaluations, seconds_since(start));
        }
    };
    book::GrowthReport total;
    for (std::size_t i = 0; i < s.roots.size() && !stop; ++i) {
        const auto report = book::grow_by_deviation(book, s.roots[i], s.deviation, evaluate, callbacks, &stop);
        total.positions = report.positions;
        total.added += report.added;
        total.evaluations += report.evaluations;
        total.stopped = report.stopped;
        if (s.roots.size() > 1) {
            std::fprintf(stderr, "reversi-book: root %zu of %zu done, %zu positions\n", i + 1, s.roots.size(),
                         report.positions);
        }
    }
    const auto value = book.value(s.roots.front());
    std::fprintf(stderr, "reversi-book: %s %s: %zu positions (%zu new), %zu searches, %.1f s, root value %s\n",
                 total.stopped ? "stopped, saved" : "done,", s.path.c_str(), total.positions, total.added,
                 total.evaluations, seconds_since(start), value ? std::to_string(*value).c_str() : "none");
    return save_failed ? 1 : 0;
}

int show(const std::string& path, const std::string& transcript) {
    auto loaded = book::load_book_file(path);
    if (!loaded) {
        std::fprintf(stderr, "reversi-book: %s\n", loaded.error().message.c_str());
        return 1;
    }
    auto pos = root_of(transcript);
    if (!pos) {
        std::fprintf(stderr, "reversi-book: %s\n", pos.error().message.c_str());
        return 2;
    }
    std::printf("%s: %zu positions\n", path.c_str(), loaded->size());
    const auto moves = loaded->moves(*pos);
    if (moves.empty()) {
        std::printf("position %s: not in the book\n", transcript.empty() ? "start" : transcript.c_str());
        return 0;
    }
    std::printf("position %s:", transcript.empty() ? "start" : transcript.c_str());
    for (const auto& m : moves) {
        const auto child = book::book_child(*pos, m.square);
        std::printf(" %s %+d%s", move_to_string(m.square).c_str(), m.value,
                    !child.final_value && loaded->contains(child.position) ? "" : " (leaf)");
    }
    std::printf("\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec{
        "reversi-book",
        "reversi-book build --book FILE [options] | reversi-book show FILE [MOVES]",
        "Opening books (docs/book.md). `build` grows FILE by deviation from the start position (or --from\n"
        "MOVES): every book position stores the values of all its legal moves, searched by the engine at\n"
        "--depth (an exact solve at --solve-empties or fewer empties), and the moves within --deviation\n"
        "discs of the best are followed down to --plies plies; values are then negamaxed through the book.\n"
        "The file is saved every --save-every new positions, at the end, at --time-limit and on Ctrl-C;\n"
        "running the same command again continues it. Progress goes to stderr.\n"
        "With --openings FILE (e.g. the XOT list) it grows from each opening in turn.\n"
        "`show FILE [MOVES]` prints the book moves of the position after MOVES (e.g. f5d6) with their values\n"
        "(discs for the side to move; '(leaf)': a searched value, the move's position is not in the book).",
        {{"book", true, "build: the book file to grow (created when missing)"},
         {"plies", true, "build: book positions up to this many plies from the root, exclusive (default 10)"},
         {"deviation", true, "build: follow moves within this many discs of the best (default 2)"},
         {"depth", true, "build: search depth of the leaf values (default 12)"},
         {"solve-empties", true, "build: exact solve at this many empties or fewer (default 20)"},
         {"save-every", true, "build: save after this many new positions (default 100)"},
         {"hash", true, "build: transposition table in MiB (default 64)"},
         {"threads", true, "build: search threads (default 1)"},
         {"from", true, "build: grow from the position after these moves (default: the start)"},
         {"time-limit", true, "build: stop and save after this many seconds (default: none)"},
         {"openings", true,
          "build: grow from each opening of this file instead (XOT lists: transcripts; --plies counts from each)"},
         {"openings-count", true, "build: only the first N openings of --openings (default: all)"}},
        ""};
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    const std::string command = args.positional.empty() ? "" : args.positional[0];
    if (command == "show") {
        if (args.positional.size() < 2 || args.positional.size() > 3) {
            std::fprintf(stderr, "reversi-book: usage: reversi-book show FILE [MOVES]\n");
            return 2;
        }
        return show(args.positional[1], args.positional.size() == 3 ? args.positional[2] : "");
    }
    if (command != "build" || args.positional.size() != 1 || !args.has("book")) {
        std::fprintf(stderr, "reversi-book: usage: %s (--help)\n", spec.usage.c_str());
        return 2;
    }
    auto plies = args.get_int("plies", 10, 1, 60);
    auto deviation = args.get_int("deviation", 2, 0, 128);
    auto depth = args.get_int("depth", 12, 1, 60);
    auto solve = args.get_int("solve-empties", 20, 0, 60);
    auto save_every = args.get_int("save-every", 100, 0, 1000000000);
    auto hash = args.get_int("hash", 64, 1, 65536);
    auto threads = args.get_int("threads", 1, 1, 256);
    auto time_limit = args.get_int("time-limit", 0, 0, 100000000);
    for (const auto* v : {&plies, &deviation, &depth, &solve, &save_every, &hash, &threads, &time_limit}) {
        if (!*v) {
            std::fprintf(stderr, "reversi-book: %s\n", v->error().message.c_str());
            return 2;
        }
    }
    auto root = root_of(args.get("from", ""));
    if (!root) {
        std::fprintf(stderr, "reversi-book: --from: %s\n", root.error().message.c_str());
        return 2;
    }
    BuildSettings s;
    s.path = args.get("book", "");
    s.roots = {*root};
    if (args.has("openings")) {
        auto openings = data::read_openings(args.get("openings", ""), Variant::Standard);
        auto count = args.get_int("openings-count", 1000000000, 1, 1000000000);
        if (!openings || !count) {
            std::fprintf(stderr, "reversi-book: --openings: %s\n",
                         (!openings ? openings.error() : count.error()).message.c_str());
            return 2;
        }
        s.roots.clear();
        for (const auto& o : *openings) {
            if (static_cast<long long>(s.roots.size()) >= *count) break;
            s.roots.push_back(o.position());
        }
        if (s.roots.empty()) {
            std::fprintf(stderr, "reversi-book: --openings: no opening in the file\n");
            return 2;
        }
    }
    s.deviation = {static_cast<int>(*plies), static_cast<int>(*deviation), static_cast<std::size_t>(*save_every)};
    s.depth = static_cast<int>(*depth);
    s.solve_empties = static_cast<int>(*solve);
    s.hash_mib = static_cast<std::size_t>(*hash);
    s.threads = static_cast<int>(*threads);
    s.time_limit_s = static_cast<double>(*time_limit);
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    return build(s);
}
