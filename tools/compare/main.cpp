// reversi-compare: runs the search algorithms side by side on the same positions with the same settings
// and prints, per position, nodes and leaves for each algorithm (rows) and depth (columns), totals and
// the ratio to alphabeta; writes CSV and an SVG chart; ends with the synthetic-tree ratios.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/board/notation.hpp"
#include "engine/board/variant_notation.hpp"
#include "engine/search/move_ordering.hpp"
#include "engine/search/searcher.hpp"
#include "protocol/cli/command_line.hpp"
#include "tools/compare/compare.hpp"

using namespace reversi;
using namespace reversi::compare;

namespace {

Expected<std::pair<int, int>> parse_range(const std::string& text, const std::string& what) {
    int a = 0, b = 0;
    char dash = 0;
    std::istringstream in(text);
    if (in >> a) {
        if (in >> dash) {
            if (dash != '-' || !(in >> b)) return make_error(what + ": '" + text + "' is not N or N-M");
        } else {
            b = a;
        }
        if (a <= b) return std::pair{a, b};
    }
    return make_error(what + ": '" + text + "' is not N or N-M with N <= M");
}

std::string default_data_dir() {
    std::error_code ec;
    for (const std::filesystem::path& dir :
         {std::filesystem::path("../shared/data"),
          std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / "../../../../shared/data"}) {
        if (std::filesystem::is_directory(dir / "ffo", ec)) return dir.lexically_normal().string();
    }
    return "../shared/data";
}

Expected<std::vector<NamedPosition>> load_ffo(const std::string& data_dir, int first, int last) {
    std::vector<NamedPosition> out;
    const int starts[] = {1, 20, 40, 60};
    const char* files[] = {"fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf", "fforum-60-79.obf"};
    for (int f = 0; f < 4; ++f) {
        const int file_first = starts[f], file_last = f < 3 ? starts[f + 1] - 1 : 79;
        if (last < file_first || first > file_last) continue;
        const std::string path = data_dir + "/ffo/" + files[f];
        auto entries = read_obf_file(path);
        if (!entries) return make_error(path + ": " + entries.error().message);
        for (int n = std::max(first, file_first); n <= std::min(last, file_last); ++n) {
            const auto index = static_cast<std::size_t>(n - file_first);
            if (index >= entries->size()) return make_error(path + ": no position #" + std::to_string(n));
            out.push_back({"FFO #" + std::to_string(n), (*entries)[index].position});
        }
    }
    if (first < 1 || last > 79) return make_error("--ffo: positions are numbered 1-79");
    return out;
}

Expected<std::vector<Algorithm>> parse_algorithms(const std::string& text) {
    std::vector<Algorithm> out;
    std::istringstream in(text);
    std::string name;
    while (std::getline(in, name, ',')) {
        auto a = parse_algorithm(name);
        if (!a) return a.error();
        out.push_back(*a);
    }
    if (out.empty()) return make_error("--algorithms: empty list");
    return out;
}

Expected<bool> parse_switch(const cli::ParsedArgs& args, const std::string& name, bool fallback) {
    const std::string v = args.get(name, fallback ? "on" : "off");
    if (v == "on" || v == "1" || v == "true") return true;
    if (v == "off" || v == "0" || v == "false") return false;
    return make_error("--" + name + ": expected on or off, got '" + v + "'");
}

bool write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    return static_cast<bool>(out);
}

// The positions to compare, in this order: --ffo, --obf (its --lines), --start, the board strings.
Expected<std::vector<NamedPosition>> gather_positions(const cli::ParsedArgs& args, Variant variant) {
    std::vector<NamedPosition> positions;
    if (args.has("ffo")) {
        if (variant != Variant::Standard)
            return make_error("--ffo: the FFO positions are 8x8 ones; leave out --variant");
        auto range = parse_range(args.get("ffo", ""), "--ffo");
        if (!range) return range.error();
        auto ffo = load_ffo(args.get("data", default_data_dir()), range->first, range->second);
        if (!ffo) return ffo.error();
        positions = std::move(*ffo);
    }
    if (args.has("obf")) {
        const std::string path = args.get("obf", "");
        // On a small board, lines of its own squares (as reversi-solve --variant reads them); before, the
        // file was read as 8x8 and searched there, whatever --variant said.
        auto entries = variant == Variant::Standard ? read_obf_file(path) : read_variant_obf_file(path, variant);
        if (!entries) return make_error(path + ": " + entries.error().message);
        std::pair<int, int> lines{1, static_cast<int>(entries->size())};
        if (args.has("lines")) {
            auto r = parse_range(args.get("lines", ""), "--lines");
            if (!r) return r.error();
            if (r->first < 1) return make_error("--lines: '" + args.get("lines", "") + "': lines are numbered from 1");
            lines = *r;
        }
        for (int i = lines.first; i <= lines.second && i <= static_cast<int>(entries->size()); ++i) {
            positions.push_back(
                {path + " #" + std::to_string(i), (*entries)[static_cast<std::size_t>(i - 1)].position});
        }
    }
    if (args.has("start")) {
        positions.push_back({std::string(variant_info(variant).name) + " start", start_position(variant)});
    }
    for (std::size_t i = 0; i < args.positional.size(); ++i) {
        auto pos = parse_board(args.positional[i], variant);
        if (!pos) return make_error("board " + std::to_string(i + 1) + ": " + pos.error().message);
        positions.push_back({"board " + std::to_string(i + 1), *pos});
    }
    if (positions.empty()) return make_error("no positions: give --ffo, --obf or board strings (see --help)");
    return positions;
}

// The searches' settings: --tt, --id, --aspiration, --eval and --ordering; never the dedicated solver
// nor a selective search (textbook comparisons).
Expected<SearchOptions> comparison_options(const cli::ParsedArgs& args) {
    SearchOptions options;
    auto tt = parse_switch(args, "tt", true);
    auto id = parse_switch(args, "id", true);
    auto aspiration = parse_switch(args, "aspiration", true);
    for (const auto* s : {&tt, &id, &aspiration}) {
        if (!*s) return s->error();
    }
    options.use_tt = *tt;
    options.iterative_deepening = *id;
    options.aspiration = *aspiration;
    options.dedicated_endgame = false;             // every algorithm, negascout included, solves with its own search
    options.selectivity = kMaxSelectivityPercent;  // textbook comparisons: never selective (Multi-ProbCut off)
    auto eval_kind = parse_eval_kind(args.get("eval", "heuristic"));
    if (!eval_kind) return make_error("--eval: " + eval_kind.error().message);
    options.evaluation = *eval_kind;
    const std::string ordering = args.get("ordering", "normal");
    if (ordering == "none") {
        options.ordering = MoveOrdering::None;
    } else if (ordering == "article") {
        options.ordering = MoveOrdering::Fixed;
        options.fixed_order.assign(kDiamondArticleOrder.begin(), kDiamondArticleOrder.end());
    } else if (ordering != "normal") {
        return make_error("--ordering: expected normal, none or article, got '" + ordering + "'");
    }
    return options;
}

// Every cell of m (position x algorithm x depth): one search from a cleared table each, progress on
// stderr; an algorithm that exceeds the time limit on a position is not run deeper there.
void measure_cells(Measurements& m, SearchOptions options, std::size_t hash_mib, std::chrono::seconds limit) {
    Searcher searcher(hash_mib);
    const std::atomic<bool> stop{false};
    m.cells.assign(m.positions.size(),
                   std::vector<std::vector<Cell>>(m.algorithms.size(), std::vector<Cell>(m.depths.size())));
    for (std::size_t p = 0; p < m.positions.size(); ++p) {
        const Position& pos = m.positions[p].position;
        for (std::size_t a = 0; a < m.algorithms.size(); ++a) {
            options.algorithm = m.algorithms[a];
            searcher.set_options(options);
            for (std::size_t d = 0; d < m.depths.size(); ++d) {
                searcher.clear();
                SearchLimits limits;
                limits.depth = m.depths[d];
                limits.hard_time = limit;
                const auto r = searcher.search(pos, limits, {}, stop);
                Cell& c = m.cells[p][a][d];
                c.done = r.depth >= std::min(m.depths[d], pos.empty_count());
                c.nodes = r.nodes;
                c.leaves = r.leaves;
                c.score = r.score;
                c.best = r.best_move;
                c.seconds = static_cast<double>(r.time.count()) / 1000.0;
                std::fprintf(stderr, "%s %-14s depth %2d: %s %12llu nodes %12llu leaves score %+3d %s %8.2f s\n",
                             m.positions[p].name.c_str(), std::string(algorithm_name(m.algorithms[a])).c_str(),
                             m.depths[d], c.done ? "" : "STOPPED", static_cast<unsigned long long>(c.nodes),
                             static_cast<unsigned long long>(c.leaves), c.score, move_to_string(c.best).c_str(),
                             c.seconds);
                if (!c.done) {
                    c.nodes = c.leaves = 0;
                    break;
                }
            }
        }
    }
}

cli::ProgramSpec program_spec() {
    return cli::ProgramSpec{
        "reversi-compare",
        "reversi-compare [options] [BOARD ...]",
        "Runs the selected search algorithms with the same settings on the same positions and prints, per\n"
        "position, the nodes and leaves of each algorithm (rows) at each depth (columns), the totals and the\n"
        "ratio of each algorithm to alphabeta, then the total over the positions. Each cell is one search\n"
        "from a cleared table. A cell that exceeds the time limit is shown as '-' and the algorithm is not\n"
        "run deeper on that position. Positions: FFO numbers (--ffo), an OBF file (--obf), or board strings\n"
        "(64 squares a1..h8 and the side to move). Ends with alpha-beta's leaves relative to the minimal\n"
        "tree on synthetic uniform trees. Progress goes to stderr, tables to stdout.",
        {{"ffo", true, "FFO positions N or N-M (1-79), read from DATA/ffo/"},
         {"data", true, "the shared data folder (default ../shared/data, or beside the build folder)"},
         {"obf", true, "an OBF file of positions"},
         {"lines", true, "with --obf: positions N-M of the file (1-based; default all)"},
         {"depths", true, "depth range N-M (default 2-10)"},
         {"algorithms", true, "comma-separated names (default: all nine)"},
         {"tt", true, "transposition table on/off (default on)"},
         {"ordering", true,
          "move ordering: normal, none (ascending squares), article (the mini-reversi\n"
          "                   article's fixed order d2 e2 b4 g4 ...) (default normal)"},
         {"variant", true,
          "board of the board strings, of --obf (lines of the variant's squares, as reversi-solve --variant\n"
          "                   reads them) and of --start: 8x8, 6x6, 6x6-parallel, 4x4, diamond, diamond-parallel"},
         {"start", false, "add the variant's start position"},
         {"id", true, "iterative deepening on/off (default on: a cell counts iterations 1..depth)"},
         {"aspiration", true, "aspiration windows on/off (default on)"},
         {"eval", true, "evaluation at the horizon: heuristic or pattern (default heuristic)"},
         {"hash", true, "table size in MiB (default 64)"},
         {"time-limit", true, "seconds per cell (default 60)"},
         {"csv", true, "write every cell to this CSV file"},
         {"svg", true, "write the nodes-against-depth chart (log scale) to this SVG file"},
         {"no-trees", false, "skip the synthetic-tree ratios"},
         {"trees-only", false, "print only the synthetic-tree ratios"}},
        "Examples: nice reversi-compare --ffo 40-44 --depths 2-10 --csv ffo.csv --svg ffo.svg\n"
        "          reversi-compare --variant diamond --start --depths 20 --algorithms alphabeta --tt off --id off\n"
        "                          --ordering article   (the mini-reversi article's 1,690,895 leaves)"};
}

// The cells to measure: the positions (on --variant's board), --depths and --algorithms.
Expected<Measurements> planned_measurements(const cli::ParsedArgs& args) {
    auto variant = parse_variant(args.get("variant", "8x8"));
    if (!variant) return variant.error();
    Measurements m;
    auto positions = gather_positions(args, *variant);
    if (!positions) return positions.error();
    m.positions = std::move(*positions);
    auto depths = parse_range(args.get("depths", "2-10"), "--depths");
    if (!depths) return depths.error();
    if (depths->first < 1 || depths->second > 60) return make_error("--depths: depths are 1-60");
    for (int d = depths->first; d <= depths->second; ++d) m.depths.push_back(d);
    auto algorithms = parse_algorithms(
        args.get("algorithms", "minimax,alphabeta,alphabeta-hard,negascout,scout,mtdf,sss,dual,cstar"));
    if (!algorithms) return algorithms.error();
    m.algorithms = *algorithms;
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec = program_spec();
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    auto fail = [](const std::string& message) {
        std::fprintf(stderr, "reversi-compare: %s\n", message.c_str());
        return 2;
    };
    if (args.has("trees-only")) {
        std::printf("%s", synthetic_tree_ratios().c_str());
        return 0;
    }

    auto planned = planned_measurements(args);
    if (!planned) return fail(planned.error().message);
    Measurements& m = *planned;
    auto options = comparison_options(args);
    if (!options) return fail(options.error().message);
    auto hash = args.get_int("hash", 64, 1, 65536);
    auto limit = args.get_int("time-limit", 60, 1, 86400);
    if (!hash) return fail(hash.error().message);
    if (!limit) return fail(limit.error().message);

    const auto start = std::chrono::steady_clock::now();
    measure_cells(m, *options, static_cast<std::size_t>(*hash), std::chrono::seconds(*limit));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "settings: eval %s, tt %s, ordering %s, iterative deepening %s, aspiration %s, hash %lld MiB, "
        "1 thread, %lld s per cell\n\n",
        args.get("eval", "heuristic").c_str(), options->use_tt ? "on" : "off", args.get("ordering", "normal").c_str(),
        options->iterative_deepening ? "on" : "off", options->aspiration ? "on" : "off", static_cast<long long>(*hash),
        static_cast<long long>(*limit));
    std::printf("%s", format_tables(m).c_str());
    std::printf("searches took %.1f s\n\n", seconds);
    if (args.has("csv") && !write_file(args.get("csv", ""), format_csv(m)))
        return fail("cannot write " + args.get("csv", ""));
    if (args.has("svg") && !write_file(args.get("svg", ""), format_svg(m)))
        return fail("cannot write " + args.get("svg", ""));
    if (!args.has("no-trees")) std::printf("%s", synthetic_tree_ratios().c_str());
    return 0;
}
