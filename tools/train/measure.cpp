// reversi-train measure: accuracy of static evaluations against exact scores from OBF files.
// For every listed move of every position, the position after the move is evaluated and compared with
// the exact score of that move (negated: the other side is to move after it). Also reported: the disc
// loss of the move a 1-ply search with the evaluation would choose (best listed score minus its score;
// ties go to the lowest square). With --by-loss, the trained evaluation's errors also by how much worse
// than the position's best move the evaluation itself rates each move (LossGroups).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "engine/board/notation.hpp"
#include "engine/eval/heuristic.hpp"
#include "engine/eval/pattern/baseline_evaluators.hpp"
#include "tools/train/commands.hpp"
#include "tools/train/evaluator_choice.hpp"
#include "tools/train/play_measure.hpp"
#include "tools/train/search_measure.hpp"

namespace reversi::train {

namespace {

class ZeroEvaluator final : public Evaluator {
public:
    [[nodiscard]] int evaluate(const Position&) const noexcept override { return 0; }
    [[nodiscard]] std::string_view name() const noexcept override { return "zero"; }
};

struct Tally {
    double abs_error = 0;
    double sq_error = 0;
    long long moves = 0;
    double loss = 0;
    long long positions = 0;
};

// Errors grouped by the move's loss as the evaluation sees it (its best move's value minus the move's):
// the moves other than the best one are the positions a search meets off the engine's own play, and
// a bias there shows as a mean error away from 0. Error = evaluation - exact score, from the mover's side.
struct LossGroups {
    static constexpr std::array<int, 4> kUpper = {0, 4, 10, 20};  // group g holds losses <= kUpper[g]
    static constexpr std::array<const char*, 5> kNames = {"0", "1-4", "5-10", "11-20", ">20"};
    std::array<long long, 5> moves{};
    std::array<double, 5> abs_error{};
    std::array<double, 5> error{};

    // One position's listed moves as (evaluation, exact score) pairs; `best`: the largest evaluation.
    void add(const std::vector<std::pair<int, int>>& value_score, int best) {
        for (const auto& [value, score] : value_score) {
            std::size_t g = 0;
            while (g < kUpper.size() && best - value > kUpper[g]) ++g;
            ++moves[g];
            abs_error[g] += std::abs(value - score);
            error[g] += value - score;
        }
    }
    void print(const std::string& file, std::string_view evaluation) const {
        for (std::size_t g = 0; g < moves.size(); ++g) {
            const double n = moves[g] ? static_cast<double>(moves[g]) : 1.0;
            std::printf("%-28s %-18s %9s %9lld %8.2f %+10.2f\n", file.c_str(), std::string(evaluation).c_str(),
                        kNames[g], moves[g], abs_error[g] / n, error[g] / n);
        }
    }
};

// The search measure's settings from --movetime or --depth, --selectivity, --eval, --weights, --ordering.
Expected<PlaySettings> read_play_settings(const cli::ParsedArgs& args) {
    PlaySettings settings;
    if (args.has("movetime") == args.has("depth")) return make_error("measure: give either --movetime MS or --depth N");
    if (args.has("movetime")) {
        const auto ms = args.get_int("movetime", 1000, 1, 3600000);
        if (!ms) return ms.error();
        settings.movetime_ms = static_cast<int>(*ms);
    } else {
        const auto depth = args.get_int("depth", 8, 1, 60);
        if (!depth) return depth.error();
        settings.depth = static_cast<int>(*depth);
    }
    const auto selectivity = args.get_int("selectivity", 100, 1, 100);
    if (!selectivity) return selectivity.error();
    settings.selectivity = static_cast<int>(*selectivity);
    const auto kind = parse_eval_kind(args.get("eval", "pattern"));
    if (!kind) return make_error("--eval: " + kind.error().message);
    settings.evaluation = *kind;
    settings.weights = args.get("weights", "");
    const std::string ordering = args.get("ordering", "normal");
    if (ordering == "evaluated") {
        settings.ordering = MoveOrdering::Evaluated;
    } else if (ordering != "normal") {
        return make_error("--ordering: expected normal or evaluated, got '" + ordering + "'");
    }
    return settings;
}

void print_play_header(const PlaySettings& settings) {
    std::printf(
        "engine search (Searcher: iterative deepening, 1 thread, Hash %zu MiB cleared per position), eval %s, "
        "selectivity %d%%, ordering %s, %s\n",
        settings.hash_mib, std::string(eval_kind_name(settings.evaluation)).c_str(), settings.selectivity,
        settings.ordering == MoveOrdering::Evaluated ? "evaluated" : "normal",
        settings.movetime_ms ? ("movetime " + std::to_string(*settings.movetime_ms) + " ms").c_str()
                             : ("depth " + std::to_string(*settings.depth)).c_str());
    std::printf(
        "loss = best listed score - chosen move's score (discs); cpu%% = CPU time / wall time of the searches\n"
        "(with --movetime, a cpu%% well below 100 means other work took the core and the depths are lower)\n");
    std::printf("%-20s %9s %9s %8s %7s %10s %7s %10s %6s %11s\n", "file", "positions", "mean-loss", "max-loss", "best%",
                "mean-depth", "exact%", "time-s", "cpu%", "Mnodes/s");
}

void print_play_row(const std::string& name, const PlayQuality& q) {
    const double n = q.positions ? static_cast<double>(q.positions) : 1.0;
    const double seconds = q.time.count();
    std::printf("%-20s %9lld %9.2f %8.0f %6.1f%% %10.2f %6.1f%% %10.1f %5.0f%% %11.2f\n", name.c_str(), q.positions,
                q.loss / n, q.max_loss, 100.0 * static_cast<double>(q.best_chosen) / n, q.depth / n,
                100.0 * static_cast<double>(q.exact) / n, seconds, seconds > 0 ? 100.0 * q.cpu_seconds / seconds : 0.0,
                seconds > 0 ? static_cast<double>(q.nodes) / seconds / 1e6 : 0.0);
    std::fflush(stdout);
}

// --movetime MS or --depth N: the engine's search (Searcher) on each position, chosen-move quality.
int run_play_measure(const cli::ParsedArgs& args) {
    const auto fail = [](const std::string& message) {
        std::fprintf(stderr, "reversi-train: %s\n", message.c_str());
        return 2;
    };
    const auto settings = read_play_settings(args);
    if (!settings) return fail(settings.error().message);
    const auto limit = args.get_int("limit", 0, 0, 100000000);
    if (!limit) return fail(limit.error().message);
    print_play_header(*settings);
    for (const auto& path : args.positional) {
        auto entries = read_obf_file(path);
        if (!entries) {
            std::fprintf(stderr, "reversi-train: %s\n", entries.error().message.c_str());
            return 1;
        }
        if (*limit > 0 && entries->size() > static_cast<std::size_t>(*limit))
            entries->resize(static_cast<std::size_t>(*limit));
        const std::string name = std::filesystem::path(path).filename().string();
        const auto q = measure_play(*entries, *settings, name);
        if (!q) {
            std::fprintf(stderr, "reversi-train: %s\n", q.error().message.c_str());
            return 1;
        }
        print_play_row(name, *q);
    }
    return 0;
}

// --depths 2,4,8: the fixed-depth searches to measure (none without the option).
Expected<std::vector<int>> depth_list(const std::string& text) {
    std::vector<int> depths;
    for (const char* p = text.c_str(); *p;) {
        char* end = nullptr;
        const long d = std::strtol(p, &end, 10);
        if (end == p || d < 1 || d > 20) return make_error("--depths: expected a list like 2,4,8 of depths 1-20");
        depths.push_back(static_cast<int>(d));
        p = *end == ',' ? end + 1 : end;
    }
    return depths;
}

// One position's listed moves, each evaluated a ply deep by `evaluator`, into its tally; the move it
// prefers is the one it would play (its loss against the best score). With `value_score`, each move's
// (evaluation, exact score) pair is appended there; returns the preferred move's evaluation, or nullopt
// when no legal move is listed.
std::optional<int> tally_position(const ObfEntry& entry, int best, const Evaluator& evaluator, Tally& tally,
                                  std::vector<std::pair<int, int>>* value_score) {
    int chosen_score = 0;
    std::optional<int> chosen_value;
    // Moves in square order (not the file's best-first order, which would favour ties).
    for (int move : squares(entry.position.moves())) {
        const auto listed = std::find_if(entry.move_scores.begin(), entry.move_scores.end(),
                                         [&](const auto& ms) { return ms.first == move; });
        if (listed == entry.move_scores.end()) continue;
        const int score = listed->second;
        const int value = -evaluator.evaluate(entry.position.play(move));
        const double err = value - score;
        tally.abs_error += std::abs(err);
        tally.sq_error += err * err;
        ++tally.moves;
        if (value_score) value_score->emplace_back(value, score);
        if (!chosen_value || value > *chosen_value) {
            chosen_value = value;
            chosen_score = score;
        }
    }
    if (chosen_value) {
        tally.loss += best - chosen_score;
        ++tally.positions;
    }
    return chosen_value;
}

void print_tallies(const std::string& file, const std::vector<const Evaluator*>& evaluators,
                   const std::vector<Tally>& tallies) {
    for (std::size_t e = 0; e < evaluators.size(); ++e) {
        const Tally& t = tallies[e];
        const double n = t.moves ? static_cast<double>(t.moves) : 1.0;
        std::printf("%-28s %-18s %9lld %8.2f %8.2f %14.2f\n", file.c_str(), std::string(evaluators[e]->name()).c_str(),
                    t.moves, t.abs_error / n, std::sqrt(t.sq_error / n),
                    t.positions ? t.loss / static_cast<double>(t.positions) : 0.0);
    }
}

// The fixed-depth searches of --depths on every file, for the heuristic and the pattern evaluation.
void print_search_rows(const std::vector<std::string>& paths, const std::vector<std::vector<ObfEntry>>& files,
                       const std::vector<int>& depths, const Evaluator& heuristic, const Evaluator& pattern) {
    std::printf("\nfixed-depth NegaScout searches: |root value - exact value| and disc loss of the chosen move\n");
    std::printf("%-28s %-18s %6s %9s %8s %10s %12s\n", "file", "evaluation", "depth", "positions", "MAE", "move loss",
                "nodes/search");
    for (std::size_t f = 0; f < files.size(); ++f) {
        const std::string name = std::filesystem::path(paths[f]).filename().string();
        for (const Evaluator* e : {&heuristic, &pattern}) {
            for (int depth : depths) {
                const auto a = measure_search(files[f], *e, depth);
                std::printf("%-28s %-18s %6d %9lld %8.2f %10.2f %12.0f\n", name.c_str(), std::string(e->name()).c_str(),
                            depth, a.positions, a.value_mae, a.move_loss, a.nodes);
                std::fflush(stdout);
            }
        }
    }
}

}  // namespace

int run_measure(const cli::ParsedArgs& args) {
    if (args.positional.empty()) {
        std::fprintf(stderr, "reversi-train: measure needs OBF files\n");
        return 2;
    }
    if (args.has("movetime") || args.has("depth")) return run_play_measure(args);
    auto pattern = load_pattern_evaluator(args);
    if (!pattern) return 1;
    const ZeroEvaluator zero;
    const eval::DiscDifferenceEvaluator discs;
    const eval::MobilityCornerEvaluator mobility;
    const HeuristicEvaluator heuristic;
    const std::vector<const Evaluator*> evaluators = {&zero, &discs, &mobility, &heuristic, &*pattern};
    const auto depths = depth_list(args.get("depths", ""));
    if (!depths) {
        std::fprintf(stderr, "reversi-train: %s\n", depths.error().message.c_str());
        return 2;
    }
    const bool by_loss = args.has("by-loss");
    std::vector<std::vector<ObfEntry>> all_entries;
    std::vector<std::pair<std::string, LossGroups>> groups;  // per file, the pattern evaluation's

    std::printf("%-28s %-18s %9s %8s %8s %14s\n", "file", "evaluation", "moves", "MAE", "RMSE", "1-ply loss");
    for (const auto& path : args.positional) {
        auto entries = read_obf_file(path);
        if (!entries) {
            std::fprintf(stderr, "reversi-train: %s\n", entries.error().message.c_str());
            return 1;
        }
        all_entries.push_back(*entries);
        std::vector<Tally> tallies(evaluators.size());
        LossGroups file_groups;
        std::vector<std::pair<int, int>> value_score;
        for (const auto& entry : *entries) {
            const auto best = entry.best_score();
            if (!best) continue;
            for (std::size_t e = 0; e < evaluators.size(); ++e) {
                const bool grouped = by_loss && evaluators[e] == &*pattern;
                value_score.clear();
                const auto chosen =
                    tally_position(entry, *best, *evaluators[e], tallies[e], grouped ? &value_score : nullptr);
                if (grouped && chosen) file_groups.add(value_score, *chosen);
            }
        }
        const std::string name = std::filesystem::path(path).filename().string();
        print_tallies(name, evaluators, tallies);
        if (by_loss) groups.emplace_back(name, file_groups);
    }
    if (by_loss) {
        std::printf(
            "\nby the move's loss as the evaluation sees it (discs below its best move's value); "
            "mean error = evaluation - exact, from the mover's side\n");
        std::printf("%-28s %-18s %9s %9s %8s %10s\n", "file", "evaluation", "loss", "moves", "MAE", "mean-error");
        for (const auto& [file, g] : groups) g.print(file, pattern->name());
    }
    if (!depths->empty()) print_search_rows(args.positional, all_entries, *depths, heuristic, *pattern);
    return 0;
}

}  // namespace reversi::train
