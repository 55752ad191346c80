// reversi-train train: WTHOR -> samples -> weights, with progress and resumption.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <spdlog/spdlog.h>

#include "engine/endgame/solver.hpp"
#include "engine/eval/pattern/training/trainer.hpp"
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

}  // namespace

int run_train(const cli::ParsedArgs& args) {
    using namespace reversi::eval;
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
    double lambda = 5.0;
    try {
        lambda = std::stod(args.get("lambda", "5"));
    } catch (...) {
        lambda = -1;
    }
    if (!(lambda >= 0)) {
        std::fprintf(stderr, "reversi-train: --lambda: expected a number >= 0\n");
        return 2;
    }
    const std::string out = args.get("out", "");
    if (out.empty()) {
        std::fprintf(stderr, "reversi-train: train needs --out FILE\n");
        return 2;
    }
    auto files = wthor_files(args.get("wthor", "../shared/data/wthor"));
    if (!files) {
        std::fprintf(stderr, "reversi-train: %s\n", files.error().message.c_str());
        return 1;
    }

    // Extra game files (self-play), after the tournament files.
    for (std::string rest = args.get("selfplay", ""); !rest.empty();) {
        const auto comma = rest.find(',');
        const std::string f = rest.substr(0, comma);
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
        if (f.empty()) continue;
        if (!std::filesystem::is_regular_file(f)) {
            std::fprintf(stderr, "reversi-train: --selfplay: %s is not a file\n", f.c_str());
            return 1;
        }
        files->push_back(f);
    }
    BuildConfig build;
    build.wthor_files = *files;
    build.cache_dir = args.get("cache", "");
    if (!build.cache_dir.empty()) std::filesystem::create_directories(build.cache_dir);
    build.max_games = static_cast<std::uint64_t>(*max_games);
    const int limit = static_cast<int>(*exact);
    build.policy.exact_empties = limit;
    build.threads = static_cast<int>(*threads);
    // Exact targets from the engine's own endgame solver, one per build thread. Its table is kept
    // between the positions of a line (a cache of exact bounds: the scores stay exact), and its move
    // ordering uses the embedded evaluation, whatever is being trained.
    auto ordering = eval::PatternEvaluator::embedded_default();
    std::shared_ptr<const eval::PatternEvaluator> shared_ordering;
    if (ordering) shared_ordering = std::make_shared<const eval::PatternEvaluator>(std::move(*ordering));
    build.solver_factory = [limit, shared_ordering]() -> ExactSolver {
        auto solver = std::make_shared<endgame::EndgameSolver>(limit > 16 ? 64 : 16);
        solver->set_pattern(shared_ordering);
        return [solver, limit](const Position& pos) -> std::optional<ExactScore> {
            if (pos.empty_count() > limit) return std::nullopt;
            const std::atomic<bool> stop{false};
            auto r = solver->solve(pos, endgame::SolveOptions{}, stop);
            if (!r || !r->completed || r->bound != endgame::ScoreBound::Exact) return std::nullopt;
            return ExactScore{r->score, r->best_move};
        };
    };
    build.policy.blend = args.get("targets", "blend") != "final";
    if (args.has("targets") && args.get("targets", "") != "final" && args.get("targets", "") != "blend") {
        std::fprintf(stderr, "reversi-train: --targets: expected blend or final\n");
        return 2;
    }
    // Identifies the policy in cache files: 'T' or 'B' (blend), then the solver limit.
    build.policy_tag = (build.policy.blend ? 0x4200u : 0x5400u) + static_cast<std::uint32_t>(limit);

    const auto t0 = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    BuildReport report;
    auto samples = build_training_set(
        build, report, [&](const std::string& file, std::size_t i, std::size_t n, const TargetStats& s) {
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
    std::printf(
        "training set: %zu positions from %llu games (%llu unfinished games skipped; %zu files from cache), "
        "%zu after symmetric deduplication; targets: %llu exact (<= %d empties), %llu theoretical, %llu blended, "
        "%llu final result; built in %.0f s\n",
        report.raw_samples, static_cast<unsigned long long>(report.stats.games),
        static_cast<unsigned long long>(report.stats.unfinished_games), report.cached_files, report.unique_samples,
        static_cast<unsigned long long>(report.stats.exact), limit,
        static_cast<unsigned long long>(report.stats.theoretical),
        static_cast<unsigned long long>(report.stats.blended), static_cast<unsigned long long>(report.stats.actual),
        elapsed());
    std::fflush(stdout);

    FitConfig fit;
    fit.lambda = lambda;
    fit.iterations = static_cast<int>(*iterations);
    fit.test_permille = static_cast<int>(*permille);
    fit.seed = static_cast<std::uint64_t>(*seed);
    fit.min_count = static_cast<int>(*min_count);
    fit.overlap = static_cast<int>(*overlap);
    auto outcomes = train_weights(*samples, fit, out, args.has("resume"), [&](int phase, int it, double rmse) {
        spdlog::info("phase {} iteration {}/{}: train RMSE {:.3f} (float weights), {:.0f} s", phase, it, fit.iterations,
                     rmse, elapsed());
    });
    if (!outcomes) {
        std::fprintf(stderr, "reversi-train: %s\n", outcomes.error().message.c_str());
        return 1;
    }
    std::printf(
        "phase empties    train    test  weights  zero-MAE  train-MAE train-RMSE  test-MAE test-RMSE  seconds\n");
    for (const auto& o : *outcomes) {
        const auto& r = o.report;
        const int lo = r.phase * kEmptiesPerPhase;
        const int hi = r.phase == kPhaseCount - 1 ? 60 : lo + kEmptiesPerPhase - 1;
        if (o.resumed) {
            std::printf("%5d %3d-%-3d  (kept from %s, fitted by an earlier run)\n", r.phase, lo, hi, out.c_str());
            continue;
        }
        std::printf("%5d %3d-%-3d %8zu %7zu %8zu %9.2f %10.2f %10.2f %9.2f %9.2f %8.1f\n", r.phase, lo, hi,
                    r.train_count, r.test_count, r.active_weights, r.zero_test_mae, r.train_mae, r.train_rmse,
                    r.test_mae, r.test_rmse, r.seconds);
    }
    std::printf("weights written to %s (%llu bytes); total %.0f s\n", out.c_str(),
                static_cast<unsigned long long>(std::filesystem::file_size(out)), elapsed());
    return 0;
}

}  // namespace reversi::train
