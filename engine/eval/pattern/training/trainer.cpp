#include "engine/eval/pattern/training/trainer.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

namespace reversi::eval {

namespace {

struct FileResult {
    std::vector<RawSample> samples;
    TargetStats stats;
    bool cached = false;
};

std::string cache_path(const BuildConfig& config, const std::string& path) {
    if (config.cache_dir.empty() || config.max_games != 0) return {};
    return (std::filesystem::path(config.cache_dir) / (std::filesystem::path(path).stem().string() + ".samples"))
        .string();
}

// The samples of one file: from its cache when that is valid (a stale or damaged cache is rebuilt),
// else replayed and solved, then cached.
Expected<FileResult> build_file(const BuildConfig& config, const TargetPolicy& policy, const std::string& path,
                                std::uint64_t& games_left) {
    FileResult result;
    const bool perfect = config.perfect_play_files.contains(path);
    const std::uint32_t tag = config.policy_tag | (perfect ? kPerfectPlayTag : 0);
    const std::string cache = cache_path(config, path);
    if (!cache.empty() && std::filesystem::exists(cache)) {
        if (auto cached = load_samples(cache, tag)) {
            result.samples = std::move(*cached);
            result.cached = true;
            return result;
        }
    }
    auto file = data::read_wthor_file(path);
    if (!file) return file.error();
    TargetPolicy file_policy = policy;
    file_policy.perfect_from_theory = perfect;
    for (std::size_t g = 0; g < file->games.size() && games_left > 0; ++g, --games_left) {
        const auto where = [&] { return "WTHOR " + path + ", game " + std::to_string(g + 1) + ": "; };
        auto game = game_samples(file->games[g], file->header.theory_depth, file_policy, result.stats);
        if (!game) return make_error(where() + game.error().message);
        if (perfect && g % kPerfectPlayCheck == 0) {
            TargetStats checked;  // only its solves count: the game's targets are counted once
            auto solved = game_samples(file->games[g], file->header.theory_depth, policy, checked);
            result.stats.solves += checked.solves;
            if (!solved || *solved != *game)
                return make_error(where() + "not played perfectly from its theory depth (" +
                                  std::to_string(file->header.theory_depth) +
                                  " empties): the solver's targets differ from its theoretical score");
        }
        result.samples.insert(result.samples.end(), game->begin(), game->end());
    }
    if (!cache.empty()) {
        auto saved = save_samples(cache, tag, result.samples);
        if (!saved) return saved.error();
    }
    return result;
}

}  // namespace

Expected<std::vector<Sample>> build_training_set(const BuildConfig& config, BuildReport& report,
                                                 const BuildProgress& progress) {
    const std::size_t n = config.wthor_files.size();
    std::vector<FileResult> results(n);
    std::optional<Error> failure;
    std::mutex mutex;  // guards failure, report.stats, done and the progress callback
    std::size_t done = 0;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    // A game limit keeps the files in order on one thread ("the first N games").
    const int threads = config.max_games ? 1 : std::max(1, config.threads);
    std::uint64_t games_left = config.max_games ? config.max_games : ~std::uint64_t{0};
    const auto work = [&] {
        TargetPolicy policy = config.policy;
        if (config.solver_factory) policy.solver = config.solver_factory();
        std::uint64_t unlimited = ~std::uint64_t{0};
        // Only the single-threaded (limited) build touches the shared game count.
        std::uint64_t& left = config.max_games ? games_left : unlimited;
        for (std::size_t k; !failed && left > 0 && (k = next++) < n;) {
            auto r = build_file(config, policy, config.wthor_files[k], left);
            const std::lock_guard lock(mutex);
            if (!r) {
                if (!failure) failure = r.error();
                failed = true;
                return;
            }
            results[k] = std::move(*r);
            report.stats.add(results[k].stats);
            report.cached_files += results[k].cached ? 1 : 0;
            ++done;
            if (progress) progress(config.wthor_files[k], done, n, report.stats);
        }
    };
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    pool.clear();  // joins
    if (failure) return *failure;
    std::vector<RawSample> all;
    for (auto& r : results) {
        all.insert(all.end(), r.samples.begin(), r.samples.end());
        r.samples = {};
    }
    report.raw_samples = all.size();
    auto unique = deduplicate(std::move(all));
    report.unique_samples = unique.size();
    return unique;
}

Expected<std::vector<PhaseOutcome>> train_weights(std::span<const Sample> samples, const FitConfig& fit,
                                                  const std::string& output_path, bool resume,
                                                  const FitProgress& progress, std::uint32_t refit_mask) {
    WeightSet set;
    if (resume && std::filesystem::exists(output_path)) {
        auto loaded = load_weights_file(output_path);
        if (!loaded) return make_error("cannot resume: " + loaded.error().message);
        set = std::move(*loaded);
        set.trained_mask &= ~refit_mask;
    }
    std::vector<PhaseOutcome> outcomes;
    for (int phase = 0; phase < kPhaseCount; ++phase) {
        PhaseOutcome outcome;
        outcome.report.phase = phase;
        if (set.trained_mask & (1u << phase)) {
            outcome.resumed = true;
            outcomes.push_back(outcome);
            continue;
        }
        outcome.report = fit_phase(samples, phase, fit, set.phase(phase), progress);
        set.trained_mask |= 1u << phase;
        auto saved = save_weights_file(set, output_path);
        if (!saved) return saved.error();
        outcomes.push_back(outcome);
    }
    return outcomes;
}

}  // namespace reversi::eval
