// reversi-train train: WTHOR -> samples -> weights, with progress and resumption.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <spdlog/spdlog.h>

#include "engine/endgame/solver.hpp"
#include "engine/eval/pattern/training/search_targets.hpp"
#include "engine/eval/pattern/training/trainer.hpp"
#include "engine/eval/weights/default_weights.hpp"
#include "engine/eval/weights/weights_file.hpp"
#include "engine/search/searcher.hpp"
#include "tools/train/commands.hpp"

namespace reversi::train {

namespace {

Expected<std::vector<std::string>> wthor_files(const std::string& dir) {
    std::error_code ec;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const auto name = entry.path().filename().string();
        if (name.starts_with("WTH_") && entry.path().extension() == ".wtb") files.push_back(entry.path().string());
    }
    if (ec) return make_error("cannot list " + dir + ": " + ec.message());
    if (files.empty()) return make_error("no WTH_*.wtb file in " + dir);
    std::sort(files.begin(), files.end());
    return files;
}

struct SearchTargetArgs {
    int depth = 0;  // 0: no searched targets
    int selectivity = kEngineSelectivityPercent;
    std::string weights;  // empty: the embedded weights
    // Why the weights cannot search (a file of another feature layout, say): then only the scores
    // already in the checkpoint are used, and a position missing from it is an error.
    std::string unusable;
};

// The engine's own search at a fixed depth from a cleared table, so that a score depends only on the
// position (and the checkpoint does not depend on the thread count or the order).
std::function<eval::PositionScorer()> search_scorer_factory(const SearchTargetArgs& a,
                                                            std::shared_ptr<const eval::PatternEvaluator> weights) {
    return [a, weights]() -> eval::PositionScorer {
        if (!a.unusable.empty()) return [](const Position&) -> std::optional<int> { return std::nullopt; };
        auto searcher = std::make_shared<Searcher>(2);
        SearchOptions options;
        options.selectivity = a.selectivity;
        options.ordering = kEngineOrdering;
        searcher->set_options(options);
        if (weights) searcher->use_pattern_weights(*weights, a.weights);
        return [searcher, depth = a.depth](const Position& pos) -> std::optional<int> {
            const std::atomic<bool> stop{false};
            searcher->clear();
            SearchLimits limits;
            limits.depth = depth;
            const auto r = searcher->search(pos, limits, SearchCallbacks{}, stop);
            if (r.best_move == kNoMove && !pos.is_over()) return std::nullopt;
            return r.score;
        };
    };
}

// Identifies the scorer's settings in the checkpoint: depth, selectivity and the weights' bytes.
Expected<std::uint32_t> search_tag(const SearchTargetArgs& a) {
    std::vector<std::uint8_t> bytes;
    if (a.weights.empty()) {
        const auto embedded = eval::default_weights_bytes();
        bytes.assign(embedded.begin(), embedded.end());
    } else {
        auto read = eval::read_weights_bytes(a.weights, eval::kMaxWeightsFileBytes, {}, "--search-weights");
        if (!read) return read.error();
        bytes = std::move(*read);
    }
    bytes.push_back(static_cast<std::uint8_t>(a.depth));
    bytes.push_back(static_cast<std::uint8_t>(a.selectivity));
    return eval::crc32(bytes);
}

struct SearchTargetPlan {
    SearchTargetArgs args;
    eval::SearchTargetConfig config;
};

// --NAME LO-HI (default `fallback`) with 0 <= LO <= HI <= max; nullopt after printing the error.
std::optional<std::pair<int, int>> range_option(const cli::ParsedArgs& args, const char* name, const char* fallback,
                                                int max) {
    const std::string text = args.get(name, fallback);
    int lo = 0, hi = 0;
    if (std::sscanf(text.c_str(), "%d-%d", &lo, &hi) != 2 || lo < 0 || hi > max || lo > hi) {
        std::fprintf(stderr, "reversi-train: --%s: expected LO-HI within 0-%d, got '%s'\n", name, max, text.c_str());
        return std::nullopt;
    }
    return std::pair{lo, hi};
}

// --search-weight W, or W:W2 for W at the range's low end and W2 at its high end (linear between), into
// `config`; false after printing the error.
bool search_weight_option(const cli::ParsedArgs& args, eval::SearchTargetConfig& config) {
    const std::string weights_text = args.get("search-weight", "1");
    const auto unit = [](const std::string& text) -> std::optional<double> {
        try {
            std::size_t used = 0;
            const double v = std::stod(text, &used);
            if (used == text.size() && v >= 0 && v <= 1) return v;
        } catch (...) {
        }
        return std::nullopt;
    };
    const auto colon = weights_text.find(':');
    const auto low = unit(weights_text.substr(0, colon));
    const auto high = colon == std::string::npos ? std::optional<double>(-1) : unit(weights_text.substr(colon + 1));
    if (low) config.weight = *low;
    if (high) config.weight_high = *high;
    if (!low || !high) {
        std::fprintf(stderr, "reversi-train: --search-weight: expected a number in [0, 1], or two (W:W2), got '%s'\n",
                     weights_text.c_str());
        return false;
    }
    return true;
}

// The --search-weights file, loaded (none without the option). An unusable file is an error (status 1),
// unless a --search-checkpoint may hold every score: then a.unusable says why and only the checkpoint is used.
int load_search_weights(const cli::ParsedArgs& args, SearchTargetArgs& a,
                        std::shared_ptr<const eval::PatternEvaluator>& weights) {
    if (a.weights.empty()) return 0;
    auto loaded = eval::PatternEvaluator::from_file(a.weights);
    if (loaded) {
        weights = std::make_shared<const eval::PatternEvaluator>(std::move(*loaded));
        return 0;
    }
    if (!args.has("search-checkpoint")) {
        std::fprintf(stderr, "reversi-train: --search-weights: %s\n", loaded.error().message.c_str());
        return 1;
    }
    a.unusable = loaded.error().message;
    spdlog::warn("--search-weights: {}; only the scores in the checkpoint are used", a.unusable);
    return 0;
}

// --search-depth D [--search-empties LO-HI] [--search-weight W[:W2]] [--search-selectivity P]
// [--search-weights FILE] [--search-checkpoint FILE], checked before anything is built: `plan` stays
// empty without --search-depth; a non-zero return is the exit code of a bad option.
int plan_searched_targets(const cli::ParsedArgs& args, int threads, std::optional<SearchTargetPlan>& plan) {
    const auto depth = args.get_int("search-depth", 0, 0, 20);
    const auto selectivity =
        args.get_int("search-selectivity", kEngineSelectivityPercent, kMinSelectivityPercent, kMaxSelectivityPercent);
    for (const auto* v : {&depth, &selectivity}) {
        if (!*v) {
            std::fprintf(stderr, "reversi-train: %s\n", v->error().message.c_str());
            return 2;
        }
    }
    if (*depth == 0) return 0;
    SearchTargetArgs a{static_cast<int>(*depth), static_cast<int>(*selectivity), args.get("search-weights", ""), {}};
    eval::SearchTargetConfig config;
    const auto range = range_option(args, "search-empties", "30-60", 60);
    if (!range) return 2;
    std::tie(config.min_empties, config.max_empties) = *range;
    if (!search_weight_option(args, config)) return 2;
    std::shared_ptr<const eval::PatternEvaluator> weights;
    if (const int rc = load_search_weights(args, a, weights); rc != 0) return rc;
    const auto tag = search_tag(a);
    if (!tag) {
        std::fprintf(stderr, "reversi-train: %s\n", tag.error().message.c_str());
        return 1;
    }
    config.tag = *tag;
    config.threads = threads;
    config.checkpoint_path = args.get("search-checkpoint", "");
    config.scorer_factory = search_scorer_factory(a, weights);
    plan = SearchTargetPlan{a, std::move(config)};
    return 0;
}

// Rewrites the targets of the samples in the plan's range.
int apply_searched_targets(const SearchTargetPlan& plan, std::vector<eval::Sample>& samples) {
    const auto& a = plan.args;
    const auto& config = plan.config;
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    const auto report = eval::apply_search_targets(samples, config, [&](std::size_t done, std::size_t total) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::seconds(10) && done != total) return;
        last = now;
        const double secs = std::chrono::duration<double>(now - t0).count();
        spdlog::info("searched targets: {}/{} positions, {:.0f} s", done, total, secs);
    });
    if (!report) {
        std::fprintf(stderr, "reversi-train: %s\n", report.error().message.c_str());
        return 1;
    }
    if (!a.unusable.empty() && report->declined > 0) {
        std::fprintf(stderr,
                     "reversi-train: %zu positions are not in the checkpoint %s and --search-weights cannot search "
                     "them: %s\n",
                     report->declined, config.checkpoint_path.c_str(), a.unusable.c_str());
        return 1;
    }
    char weight[32];
    if (config.weight_high < 0) {
        std::snprintf(weight, sizeof weight, "%.2f", config.weight);
    } else {
        std::snprintf(weight, sizeof weight, "%.2f to %.2f", config.weight, config.weight_high);
    }
    std::printf(
        "searched targets (depth %d, selectivity %d, weight %s, %d-%d empties): %zu positions, %zu searched, %zu "
        "from the checkpoint, %zu declined; mean |search - old target| %.2f discs; %.0f s\n",
        a.depth, a.selectivity, weight, config.min_empties, config.max_empties, report->selected, report->searched,
        report->from_checkpoint, report->declined, report->mean_abs_change,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::fflush(stdout);
    return 0;
}

// The held-out error of the evaluation as the engine plays it (neighbouring phases blended, see
// pattern_layout.hpp), by bucket of 6 empties, so that runs with other layouts compare directly.
// `label` names the weights (the fit's output, or the table before a warm start).
void print_played_errors(const std::vector<eval::Sample>& samples, const eval::FitConfig& fit,
                         const eval::PatternEvaluator& evaluator, const char* label) {
    constexpr int kBucket = 6;
    constexpr int kBuckets = 60 / kBucket + 1;
    std::array<double, kBuckets> error{};
    std::array<std::size_t, kBuckets> count{};
    for (const auto& s : samples) {
        if (!eval::is_test_sample(s, fit.seed, fit.test_permille)) continue;
        const Position pos{s.player, s.opponent};
        const int empties = eval::empties_of(pos);
        if (empties < fit.min_empties || empties > fit.max_empties) continue;
        const int b = std::min(empties / kBucket, kBuckets - 1);
        error[b] += std::abs(evaluator.evaluate_units(pos) / double{eval::kWeightScale} - s.target);
        ++count[b];
    }
    std::printf("held-out MAE as played (blended phases), %s, by empties:", label);
    for (int b = 0; b < kBuckets; ++b) {
        if (count[b] == 0) continue;
        std::printf(" %d-%d %.2f", b * kBucket, b == kBuckets - 1 ? 60 : b * kBucket + kBucket - 1,
                    error[b] / static_cast<double>(count[b]));
    }
    std::printf("\n");
}

// --lambda (default 5): a number >= 0; nullopt after printing the error.
std::optional<double> lambda_option(const cli::ParsedArgs& args) {
    double lambda = -1;
    try {
        lambda = std::stod(args.get("lambda", "5"));
    } catch (...) {
        lambda = -1;
    }
    if (!(lambda >= 0) || !std::isfinite(lambda)) {  // inf fitted every weight to 0
        std::fprintf(stderr, "reversi-train: --lambda: expected a finite number >= 0\n");
        return std::nullopt;
    }
    return lambda;
}

// Extra game files (self-play, --selfplay F1,F2,...) appended to `files`, after the tournament files;
// with --selfplay-perfect, their games play perfectly from their theory depth (as selfplay writes them)
// and need no solves there. Returns 0, or the exit status 1 after naming a missing file.
int add_selfplay_files(const cli::ParsedArgs& args, std::vector<std::string>& files,
                       std::set<std::string>& perfect_play) {
    for (std::string rest = args.get("selfplay", ""); !rest.empty();) {
        const auto comma = rest.find(',');
        const std::string f = rest.substr(0, comma);
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        if (f.empty()) continue;
        if (!std::filesystem::is_regular_file(f)) {
            std::fprintf(stderr, "reversi-train: --selfplay: %s is not a file\n", f.c_str());
            return 1;
        }
        files.push_back(f);
        if (args.has("selfplay-perfect")) perfect_play.insert(f);
    }
    return 0;
}

// Exact targets from the engine's own endgame solver, one per build thread. Its table is kept between
// the positions of a line (a cache of exact bounds: the scores stay exact), and its move ordering uses the
// embedded evaluation, whatever is being trained.
std::function<eval::ExactSolver()> exact_solver_factory(int limit) {
    auto ordering = eval::PatternEvaluator::embedded_default();
    std::shared_ptr<const eval::PatternEvaluator> shared_ordering;
    if (ordering) shared_ordering = std::make_shared<const eval::PatternEvaluator>(std::move(*ordering));
    return [limit, shared_ordering]() -> eval::ExactSolver {
        auto solver = std::make_shared<endgame::EndgameSolver>(limit > 16 ? 64 : 16);
        solver->set_pattern(shared_ordering);
        return [solver, limit](const Position& pos) -> std::optional<eval::ExactScore> {
            if (pos.empty_count() > limit) return std::nullopt;
            const std::atomic<bool> stop{false};
            auto r = solver->solve(pos, endgame::SolveOptions{}, stop);
            if (!r || !r->completed || r->bound != Bound::Exact) return std::nullopt;
            return eval::ExactScore{r->score, r->best_move};
        };
    };
}

// The training set's size and targets (`files`: all the game files, some of them read from the cache).
void print_training_set(const eval::BuildReport& report, int limit, std::size_t files, double seconds) {
    std::printf(
        "training set: %zu positions from %llu games (%llu unfinished games skipped; %zu files from cache), "
        "%zu after symmetric deduplication; targets: %llu exact (<= %d empties), %llu theoretical, %llu blended, "
        "%llu final result; built in %.0f s\n",
        report.raw_samples, static_cast<unsigned long long>(report.stats.games),
        static_cast<unsigned long long>(report.stats.unfinished_games), report.cached_files, report.unique_samples,
        static_cast<unsigned long long>(report.stats.exact), limit,
        static_cast<unsigned long long>(report.stats.theoretical),
        static_cast<unsigned long long>(report.stats.blended), static_cast<unsigned long long>(report.stats.actual),
        seconds);
    if (report.cached_files > 0) {
        std::printf(
            "  (the game and target counts cover only the %zu files built in this run; the cache keeps "
            "samples, not counts)\n",
            files - report.cached_files);
    }
    std::fflush(stdout);
}

// The fit's table, a line per phase (the phases an earlier run fitted are marked as kept).
void print_fit_table(const std::vector<eval::PhaseOutcome>& outcomes, bool warm_start, const std::string& out) {
    std::printf(
        "phase empties    train    test  weights  zero-MAE  train-MAE train-RMSE  test-MAE test-RMSE  seconds\n");
    for (const auto& o : outcomes) {
        const auto& r = o.report;
        const int lo = r.phase * eval::kEmptiesPerPhase;
        const int hi = r.phase == eval::kPhaseCount - 1 ? 60 : lo + eval::kEmptiesPerPhase - 1;
        if (o.resumed) {
            std::printf("%5d %3d-%-3d  (kept from %s, fitted by an earlier run)\n", r.phase, lo, hi, out.c_str());
            continue;
        }
        std::printf("%5d %3d-%-3d %8zu %7zu %8zu %9.2f %10.2f %10.2f %9.2f %9.2f %8.1f\n", r.phase, lo, hi,
                    r.train_count, r.test_count, r.active_weights, r.zero_test_mae, r.train_mae, r.train_rmse,
                    r.test_mae, r.test_rmse, r.seconds);
        if (warm_start) {
            std::printf("      warm start: train MAE %.2f -> %.2f, test MAE %.2f -> %.2f (the table before the fit)\n",
                        r.prior_train_mae, r.train_mae, r.prior_test_mae, r.test_mae);
        }
    }
}

// --refit-phases LO-HI: the phases to fit again (bits of `mask`; none without the option), the others
// kept from --out, which must then exist. Returns 0 or the exit status after the error.
int refit_mask_option(const cli::ParsedArgs& args, const std::string& out, std::uint32_t& mask) {
    if (!args.has("refit-phases")) return 0;
    const auto phases = range_option(args, "refit-phases", "", eval::kPhaseCount - 1);
    if (!phases) return 2;
    if (!std::filesystem::is_regular_file(out)) {
        std::fprintf(stderr, "reversi-train: --refit-phases: %s must exist (its other phases are kept)\n", out.c_str());
        return 1;
    }
    for (int p = phases->first; p <= phases->second; ++p) mask |= 1u << p;
    return 0;
}

// Fits the weights to the samples into `out` (with `resume`, the phases already there and outside
// `refit_mask` are kept), then prints the fit's table and the held-out errors as played (before and
// after, for a warm start). Returns the exit status.
int fit_and_report(const std::vector<eval::Sample>& samples, const eval::FitConfig& fit, const std::string& out,
                   bool resume, std::uint32_t refit_mask, const std::function<double()>& elapsed) {
    using eval::PatternEvaluator;
    // The table a warm start refines, kept to report the held-out error before and after.
    std::optional<PatternEvaluator> before;
    if (fit.warm_start) {
        if (auto loaded = PatternEvaluator::from_file(out)) before = std::move(*loaded);
    }
    auto outcomes = eval::train_weights(
        samples, fit, out, resume,
        [&](int phase, int it, double rmse) {
            spdlog::info("phase {} iteration {}/{}: train RMSE {:.3f} (float weights), {:.0f} s", phase, it,
                         fit.iterations, rmse, elapsed());
        },
        refit_mask);
    if (!outcomes) {
        std::fprintf(stderr, "reversi-train: %s\n", outcomes.error().message.c_str());
        return 1;
    }
    print_fit_table(*outcomes, fit.warm_start, out);
    if (before) print_played_errors(samples, fit, *before, "before the warm start");
    if (auto fitted = PatternEvaluator::from_file(out)) {
        print_played_errors(samples, fit, *fitted, "fitted");
    }  // else an incomplete file: the table above says which phases are there
    std::printf("weights written to %s (%llu bytes); total %.0f s\n", out.c_str(),
                static_cast<unsigned long long>(std::filesystem::file_size(out)), elapsed());
    return 0;
}

// What `train` was asked to do, every option checked before the samples are built (which can take hours).
struct TrainPlan {
    eval::BuildConfig build;
    eval::FitConfig fit;
    std::string out;
    std::optional<SearchTargetPlan> searched;
    std::uint32_t refit_mask = 0;
};

// The numeric options and --lambda.
int read_train_numbers(const cli::ParsedArgs& args, TrainPlan& plan) {
    const auto exact = args.get_int("exact-empties", 12, 0, 24);
    const auto threads = args.get_int("threads", 1, 1, 256);
    const auto iterations = args.get_int("iterations", 60, 1, 10000);
    const auto permille = args.get_int("test-permille", 100, 0, 900);
    const auto seed = args.get_int("seed", 1, 0, 1LL << 62);
    const auto max_games = args.get_int("max-games", 0, 0, 1LL << 40);
    const auto min_count = args.get_int("min-count", 3, 1, 1000000);
    const auto overlap = args.get_int("overlap", 0, 0, 30);
    for (const auto* v : {&exact, &threads, &iterations, &permille, &seed, &max_games, &min_count, &overlap}) {
        if (!*v) {
            std::fprintf(stderr, "reversi-train: %s\n", v->error().message.c_str());
            return 2;
        }
    }
    const auto lambda = lambda_option(args);
    if (!lambda) return 2;
    plan.build.policy.exact_empties = static_cast<int>(*exact);
    plan.build.threads = static_cast<int>(*threads);
    plan.build.max_games = static_cast<std::uint64_t>(*max_games);
    plan.fit.lambda = *lambda;
    plan.fit.iterations = static_cast<int>(*iterations);
    plan.fit.test_permille = static_cast<int>(*permille);
    plan.fit.seed = static_cast<std::uint64_t>(*seed);
    plan.fit.min_count = static_cast<int>(*min_count);
    plan.fit.overlap = static_cast<int>(*overlap);
    return 0;
}

// --out, the searched targets, --refit-phases, --warm-start and --fit-empties.
int read_fit_plan(const cli::ParsedArgs& args, TrainPlan& plan) {
    plan.out = args.get("out", "");
    if (plan.out.empty()) {
        std::fprintf(stderr, "reversi-train: train needs --out FILE\n");
        return 2;
    }
    if (const int rc = plan_searched_targets(args, plan.build.threads, plan.searched); rc != 0) return rc;
    if (const int rc = refit_mask_option(args, plan.out, plan.refit_mask); rc != 0) return rc;
    plan.fit.warm_start = args.has("warm-start");
    if (plan.fit.warm_start && plan.refit_mask == 0) {
        std::fprintf(stderr, "reversi-train: --warm-start refines the phases of --refit-phases: give them\n");
        return 2;
    }
    const auto fit_empties = range_option(args, "fit-empties", "0-60", 60);
    if (!fit_empties) return 2;
    std::tie(plan.fit.min_empties, plan.fit.max_empties) = *fit_empties;
    return 0;
}

// The game files (WTHOR and self-play), the sample cache and the targets' policy.
int read_sample_sources(const cli::ParsedArgs& args, eval::BuildConfig& build) {
    auto files = wthor_files(args.get("wthor", "../shared/data/wthor"));
    if (!files) {
        std::fprintf(stderr, "reversi-train: %s\n", files.error().message.c_str());
        return 1;
    }
    std::set<std::string> perfect_play;
    if (const int rc = add_selfplay_files(args, *files, perfect_play); rc != 0) return rc;
    build.wthor_files = *files;
    build.perfect_play_files = std::move(perfect_play);
    build.cache_dir = args.get("cache", "");
    if (!build.cache_dir.empty()) std::filesystem::create_directories(build.cache_dir);
    const int limit = build.policy.exact_empties;
    build.solver_factory = exact_solver_factory(limit);
    build.policy.blend = args.get("targets", "blend") != "final";
    if (args.has("targets") && args.get("targets", "") != "final" && args.get("targets", "") != "blend") {
        std::fprintf(stderr, "reversi-train: --targets: expected blend or final\n");
        return 2;
    }
    // Identifies the policy in cache files: 'T' or 'B' (blend), then the solver limit (trainer.hpp: the
    // other bits).
    build.policy_tag =
        (build.policy.blend ? 0x4200u : 0x5400u) + static_cast<std::uint32_t>(limit) + eval::kExactWipeoutsTag;
    return 0;
}

}  // namespace

int run_train(const cli::ParsedArgs& args) {
    using namespace reversi::eval;
    TrainPlan plan;
    if (const int rc = read_train_numbers(args, plan); rc != 0) return rc;
    if (const int rc = read_fit_plan(args, plan); rc != 0) return rc;
    if (const int rc = read_sample_sources(args, plan.build); rc != 0) return rc;

    const auto t0 = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    BuildReport report;
    auto samples = build_training_set(
        plan.build, report, [&](const std::string& file, std::size_t i, std::size_t n, const TargetStats& s) {
            spdlog::info(
                "samples {}/{} {}: {} games, {} positions ({} exact from {} solves, {} theoretical, {} blended, {} "
                "final "
                "result), {:.0f} s",
                i, n, std::filesystem::path(file).filename().string(), s.games, s.positions, s.exact, s.solves,
                s.theoretical, s.blended, s.actual, elapsed());
        });
    if (!samples) {
        std::fprintf(stderr, "reversi-train: %s\n", samples.error().message.c_str());
        return 1;
    }
    print_training_set(report, plan.build.policy.exact_empties, plan.build.wthor_files.size(), elapsed());
    if (plan.searched) {
        if (const int rc = apply_searched_targets(*plan.searched, *samples); rc != 0) return rc;
    }
    return fit_and_report(*samples, plan.fit, plan.out, args.has("resume") || plan.refit_mask != 0, plan.refit_mask,
                          elapsed);
}

}  // namespace reversi::train
