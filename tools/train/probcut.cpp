// reversi-train probcut: the statistics Multi-ProbCut is calibrated from. For positions of WTHOR games,
// fixed-depth NegaScout values with the pattern evaluation at a shallow and a deep depth; per phase and
// depth pair, the least-squares line deep = a * shallow + b and the standard deviation of the residual.
// A selective search would cut when a * shallow + b is outside the window by t * sigma. These figures
// are printed only: storing them with the weights and using them in the search are left for later.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "engine/data/wthor.hpp"
#include "engine/search/move_ordering.hpp"
#include "engine/search/run_algorithm.hpp"
#include "engine/search/search_context.hpp"
#include "engine/search/transposition_table.hpp"
#include "tools/train/commands.hpp"
#include "tools/train/evaluator_choice.hpp"

namespace reversi::train {

namespace {

struct EvaluatorCall {
    const Evaluator* evaluator;
    int operator()(const OthelloState& s) const noexcept { return evaluator->evaluate(s.pos); }
};
using Context = SearchContext<OthelloState, EvaluatorCall, OthelloOrder>;

int search_value(const Position& pos, const Evaluator& evaluator, int depth, TranspositionTable& tt) {
    tt.clear();
    Context ctx(EvaluatorCall{&evaluator}, OthelloOrder(MoveOrdering::Normal), &tt, nullptr);
    return run_algorithm(Algorithm::NegaScout, ctx, OthelloState{pos}, depth, -Context::kInfinity,
                         Context::kInfinity, 0)
        .value;
}

struct Pair {
    int shallow = 0;
    int deep = 0;
};

struct Line {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    void add(double x, double y) { n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y; }
};

}  // namespace

int run_probcut(const cli::ParsedArgs& args) {
    const auto count = args.get_int("positions", 2000, 10, 1000000);
    if (!count) {
        std::fprintf(stderr, "reversi-train: %s\n", count.error().message.c_str());
        return 2;
    }
    std::vector<Pair> pairs;
    const std::string list = args.get("pairs", "2:4,3:6,4:8");
    for (const char* p = list.c_str(); *p;) {
        char* end = nullptr;
        const long s = std::strtol(p, &end, 10);
        if (end == p || *end != ':') return std::fprintf(stderr, "reversi-train: --pairs: expected e.g. 2:4,4:8\n"), 2;
        p = end + 1;
        const long d = std::strtol(p, &end, 10);
        if (end == p || s < 1 || d <= s || d > 16) {
            return std::fprintf(stderr, "reversi-train: --pairs: need 1 <= shallow < deep <= 16\n"), 2;
        }
        pairs.push_back({static_cast<int>(s), static_cast<int>(d)});
        p = *end == ',' ? end + 1 : end;
    }
    auto pattern = load_pattern_evaluator(args);
    if (!pattern) return 1;

    // Positions: the most recent WTHOR files first; from game i, the positions whose empty count is
    // 14..50 and congruent to i modulo 7 (a spread over phases without taking neighbours of one game).
    const std::string dir = args.get("wthor", "../shared/data/wthor");
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".wtb") files.push_back(entry.path().string());
    }
    if (ec || files.empty()) return std::fprintf(stderr, "reversi-train: no .wtb file in %s\n", dir.c_str()), 1;
    std::sort(files.rbegin(), files.rend());
    std::vector<Position> positions;
    for (const auto& path : files) {
        auto file = data::read_wthor_file(path);
        if (!file) return std::fprintf(stderr, "reversi-train: %s\n", file.error().message.c_str()), 1;
        for (std::size_t g = 0; g < file->games.size() && positions.size() < static_cast<std::size_t>(*count); ++g) {
            auto replay = data::replay_game(file->games[g]);
            if (!replay) continue;
            for (const auto& pos : replay->before_move) {
                const int e = pos.empty_count();
                if (e >= 14 && e <= 50 && static_cast<std::size_t>(e % 7) == g % 7 &&
                    positions.size() < static_cast<std::size_t>(*count)) {
                    positions.push_back(pos);
                }
            }
        }
        if (positions.size() >= static_cast<std::size_t>(*count)) break;
    }

    std::vector<std::vector<Line>> lines(pairs.size(), std::vector<Line>(eval::kPhaseCount));
    TranspositionTable tt(16);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const int vs = search_value(pos, *pattern, pairs[k].shallow, tt);
            const int vd = search_value(pos, *pattern, pairs[k].deep, tt);
            lines[k][eval::phase_of(pos)].add(vs, vd);
        }
        if ((i + 1) % 200 == 0) std::fprintf(stderr, "probcut: %zu/%zu positions\n", i + 1, positions.size());
    }
    std::printf("%zu WTHOR positions (14-50 empties); deep = a * shallow + b, sigma = residual std (discs)\n",
                positions.size());
    std::printf("%6s %8s %6s %7s %7s %7s %7s\n", "phase", "empties", "pair", "n", "a", "b", "sigma");
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        for (int p = 0; p < eval::kPhaseCount; ++p) {
            const Line& l = lines[k][p];
            if (l.n < 10) continue;
            const double var_x = l.sxx / l.n - (l.sx / l.n) * (l.sx / l.n);
            const double cov = l.sxy / l.n - (l.sx / l.n) * (l.sy / l.n);
            const double a = var_x > 1e-9 ? cov / var_x : 1.0;
            const double b = l.sy / l.n - a * l.sx / l.n;
            // Residual variance of the fitted line.
            const double var_y = l.syy / l.n - (l.sy / l.n) * (l.sy / l.n);
            const double sigma = std::sqrt(std::max(0.0, var_y - a * cov));
            std::printf("%6d %4d-%-3d %3d:%-2d %7.0f %7.3f %7.2f %7.2f\n", p, p * eval::kEmptiesPerPhase,
                        p == eval::kPhaseCount - 1 ? 60 : p * eval::kEmptiesPerPhase + eval::kEmptiesPerPhase - 1,
                        pairs[k].shallow, pairs[k].deep, l.n, a, b, sigma);
        }
    }
    return 0;
}

}  // namespace reversi::train
