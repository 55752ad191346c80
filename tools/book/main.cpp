// reversi-book: builds and inspects opening books (engine/book/). `build` grows a book by deviation from a
// position with the engine's own search at a fixed depth (an exact solve near the end), saving every N
// new positions; run again on the same file it continues. `learn` adds the positions of finished games
// (tools/book/learn_command.hpp). `show` prints a position's book moves. `export-edax` and `import-edax`
// convert to and from Edax's book.dat (tools/book/edax_commands.hpp).
#include <atomic>
#include <cstdio>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/book/book_file.hpp"
#include "engine/book/deviation.hpp"
#include "engine/book/leaf_search.hpp"
#include "engine/data/openings.hpp"
#include "protocol/cli/command_line.hpp"
#include "tools/book/book_tool.hpp"
#include "tools/book/edax_commands.hpp"
#include "tools/book/learn_command.hpp"

using namespace reversi;
using book_tool::Clock;
using book_tool::g_stop;
using book_tool::seconds_since;

namespace {

Expected<Position> root_of(const std::string& transcript) {
    if (transcript.empty()) return start_position();
    return play_transcript(start_position(), transcript);
}

struct BuildSettings {
    std::string path;
    std::vector<Position> roots;  // grown one after the other
    book::DeviationOptions deviation;
    book::LeafSearch leaf;
    std::size_t hash_mib = 64;
    int threads = 1;
    int jobs = 1;
    double time_limit_s = 0;  // 0: none
};

int build(const BuildSettings& s) {
    auto opened = book_tool::open_book(s.path);
    if (!opened) {
        std::fprintf(stderr, "reversi-book: %s\n", opened.error().message.c_str());
        return 1;
    }
    book::Book book = std::move(*opened);
    const std::atomic<bool> never{false};
    book::ParallelLeafSearch searches(s.jobs, s.threads, s.hash_mib, s.leaf, never);
    book_tool::warn_if_no_table(searches.hash_mib(), s.hash_mib);
    std::fprintf(stderr, "reversi-book: evaluation %s; depth %d, exact solve at %d empties or fewer; %d job(s)\n",
                 searches.evaluation_status().c_str(), s.leaf.depth, s.leaf.solve_empties, searches.jobs());
    const book::BatchEvaluator evaluate = std::ref(searches);
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

// The options `build` and `learn` share, checked.
struct CommonSettings {
    book::LeafSearch leaf;
    int plies = 10;
    std::size_t save_every = 100;
    std::size_t hash_mib = 64;
    int threads = 1;
};

Expected<CommonSettings> common_settings(const cli::ParsedArgs& args, int default_plies) {
    auto plies = args.get_int("plies", default_plies, 1, 60);
    auto depth = args.get_int("depth", 12, 1, 60);
    auto solve = args.get_int("solve-empties", 20, 0, 60);
    auto save_every = args.get_int("save-every", 100, 0, 1000000000);
    auto hash = args.get_int("hash", 64, 1, 65536);
    auto threads = args.get_int("threads", 1, 1, 256);
    for (const auto* v : {&plies, &depth, &solve, &save_every, &hash, &threads}) {
        if (!*v) return v->error();
    }
    CommonSettings c;
    c.leaf = {static_cast<int>(*depth), static_cast<int>(*solve)};
    c.plies = static_cast<int>(*plies);
    c.save_every = static_cast<std::size_t>(*save_every);
    c.hash_mib = static_cast<std::size_t>(*hash);
    c.threads = static_cast<int>(*threads);
    return c;
}

// The roots of `build`: --from, or the openings of --openings.
Expected<std::vector<Position>> build_roots(const cli::ParsedArgs& args) {
    auto root = root_of(args.get("from", ""));
    if (!root) return make_error("--from: " + root.error().message);
    if (!args.has("openings")) return std::vector<Position>{*root};
    auto openings = data::read_openings(args.get("openings", ""), Variant::Standard);
    auto count = args.get_int("openings-count", 1000000000, 1, 1000000000);
    if (!openings || !count) return make_error("--openings: " + (!openings ? openings.error() : count.error()).message);
    std::vector<Position> roots;
    for (const auto& o : *openings) {
        if (static_cast<long long>(roots.size()) >= *count) break;
        roots.push_back(o.position());
    }
    if (roots.empty()) return make_error("--openings: no opening in the file");
    return roots;
}

int usage_error(const std::string& message) {
    std::fprintf(stderr, "reversi-book: %s\n", message.c_str());
    return 2;
}

int run_build(const cli::ParsedArgs& args) {
    auto common = common_settings(args, 10);
    if (!common) return usage_error(common.error().message);
    auto deviation = args.get_int("deviation", 2, 0, 128);
    auto time_limit = args.get_int("time-limit", 0, 0, 100000000);
    auto jobs = args.get_int("jobs", 1, 1, 256);
    for (const auto* v : {&deviation, &time_limit, &jobs}) {
        if (!*v) return usage_error(v->error().message);
    }
    auto roots = build_roots(args);
    if (!roots) return usage_error(roots.error().message);
    BuildSettings s;
    s.path = args.get("book", "");
    s.roots = std::move(*roots);
    s.deviation = {common->plies, static_cast<int>(*deviation), common->save_every};
    s.leaf = common->leaf;
    s.hash_mib = common->hash_mib;
    s.threads = common->threads;
    s.jobs = static_cast<int>(*jobs);
    s.time_limit_s = static_cast<double>(*time_limit);
    book_tool::install_stop_signals();
    return build(s);
}

int run_learn(const cli::ParsedArgs& args) {
    auto common = common_settings(args, 20);
    if (!common) return usage_error(common.error().message);
    if (!args.has("games")) return usage_error("learn: --games FILE is required");
    book_tool::LearnSettings s;
    s.path = args.get("book", "");
    s.games_files = {args.get("games", "")};
    s.leaf = common->leaf;
    s.learn.plies = common->plies;
    s.save_every = common->save_every;
    s.hash_mib = common->hash_mib;
    s.threads = common->threads;
    book_tool::install_stop_signals();
    return book_tool::learn_games(s);
}

int run_export_edax(const cli::ParsedArgs& args) {
    if (!args.has("out")) return usage_error("export-edax: --out FILE is required");
    auto level = args.get_int("level", 14, 0, 60);
    if (!level) return usage_error(level.error().message);
    return book_tool::export_edax(args.get("book", ""), args.get("out", ""), static_cast<int>(*level));
}

int run_import_edax(const cli::ParsedArgs& args) {
    auto common = common_settings(args, 20);
    if (!common) return usage_error(common.error().message);
    if (!args.has("edax")) return usage_error("import-edax: --edax FILE is required");
    book_tool::EdaxImportSettings s;
    s.path = args.get("book", "");
    s.edax_path = args.get("edax", "");
    s.leaf = common->leaf;
    s.hash_mib = common->hash_mib;
    s.threads = common->threads;
    book_tool::install_stop_signals();
    return book_tool::import_edax(s);
}

cli::ProgramSpec program_spec() {
    return cli::ProgramSpec{
        "reversi-book",
        "reversi-book build --book FILE [options] | reversi-book learn --book FILE --games FILE [options] |\n"
        "       reversi-book show FILE [MOVES] | reversi-book export-edax --book FILE --out EDAX.dat [--level N] |\n"
        "       reversi-book import-edax --book FILE --edax EDAX.dat [options]",
        "Opening books (docs/book.md). `build` grows FILE by deviation from the start position (or --from\n"
        "MOVES): every book position stores the values of all its legal moves, searched by the engine at\n"
        "--depth (an exact solve at --solve-empties or fewer empties), and the moves within --deviation\n"
        "discs of the best are followed down to --plies plies; values are then negamaxed through the book.\n"
        "The file is saved every --save-every new positions, at the end, at --time-limit and on Ctrl-C;\n"
        "running the same command again continues it. Progress goes to stderr.\n"
        "With --openings FILE (e.g. the XOT list) it grows from each opening in turn.\n"
        "`learn` adds finished games to FILE (created when missing): every position of a game up to --plies\n"
        "plies (default 20) that is not in the book is added with all its moves searched as `build` searches\n"
        "them, then the book is negamaxed. --games FILE holds GGF games (one or more per line) and/or move\n"
        "transcripts from the start (f5d6c3..., one a line), or is a WTHOR database (*.wtb); a game that cannot\n"
        "be read or has an illegal move is skipped with a message naming it. Saved as `build` saves; a game\n"
        "learned twice adds nothing.\n"
        "`show FILE [MOVES]` prints the book moves of the position after MOVES (e.g. f5d6) with their values\n"
        "(discs for the side to move; '(leaf)': a searched value, the move's position is not in the book).\n"
        "`export-edax` writes FILE as an Edax 4.x book.dat (explored moves as links, the best other move as\n"
        "the leaf, at Edax level --level); `import-edax` adds the positions of an Edax book.dat to FILE, each\n"
        "with all its moves valued by the engine's search as `build` does (Edax's scores are not stored), then\n"
        "negamaxes; saved at the end and on Ctrl-C, and a second run adds only what is missing (docs/book.md).",
        {{"book", true,
          "build, learn, import-edax: the book file to grow (created when missing); export-edax: the book to convert"},
         {"out", true, "export-edax: the Edax book.dat to write"},
         {"edax", true, "import-edax: the Edax book.dat to read"},
         {"level", true, "export-edax: the Edax level written with the positions (default 14)"},
         {"games", true, "learn: the games to add (GGF games and/or transcripts, or a WTHOR .wtb file)"},
         {"plies", true, "book positions up to this many plies from the root, exclusive (build 10, learn 20)"},
         {"deviation", true, "build: follow moves within this many discs of the best (default 2)"},
         {"depth", true, "build, learn, import-edax: search depth of the leaf values (default 12)"},
         {"solve-empties", true, "build, learn, import-edax: exact solve at this many empties or fewer (default 20)"},
         {"save-every", true, "build, learn: save after this many new positions (default 100)"},
         {"hash", true, "build, learn, import-edax: transposition table in MiB (default 64)"},
         {"threads", true, "build, learn, import-edax: search threads (default 1; build: of each job)"},
         {"jobs", true,
          "build: leaf searches at once, one table each, each from a cleared table (default 1; the book is the same "
          "for any number)"},
         {"from", true, "build: grow from the position after these moves (default: the start)"},
         {"time-limit", true, "build: stop and save after this many seconds (default: none)"},
         {"openings", true,
          "build: grow from each opening of this file instead (XOT lists: transcripts; --plies counts from each)"},
         {"openings-count", true, "build: only the first N openings of --openings (default: all)"}},
        ""};
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec = program_spec();
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    const std::string command = args.positional.empty() ? "" : args.positional[0];
    if (command == "show") {
        if (args.positional.size() < 2 || args.positional.size() > 3) {
            return usage_error("usage: reversi-book show FILE [MOVES]");
        }
        return show(args.positional[1], args.positional.size() == 3 ? args.positional[2] : "");
    }
    const bool known = command == "build" || command == "learn" || command == "export-edax" || command == "import-edax";
    if (!known && !command.empty()) {
        return usage_error("unknown command '" + command +
                           "' (build, learn, show, export-edax, import-edax)\nusage: " + spec.usage + " (--help)");
    }
    if (!known || args.positional.size() != 1 || !args.has("book")) {
        return usage_error("usage: " + spec.usage + " (--help)");
    }
    if (command == "export-edax") return run_export_edax(args);
    if (command == "import-edax") return run_import_edax(args);
    return command == "build" ? run_build(args) : run_learn(args);
}
