#include "engine/eval/pattern/training/trainer.hpp"

#include <filesystem>

namespace reversi::eval {

Expected<std::vector<Sample>> build_training_set(const BuildConfig& config, BuildReport& report,
                                                 const BuildProgress& progress) {
    std::vector<RawSample> all;
    std::uint64_t games_left = config.max_games ? config.max_games : ~std::uint64_t{0};
    for (std::size_t k = 0; k < config.wthor_files.size() && games_left > 0; ++k) {
        const std::string& path = config.wthor_files[k];
        std::string cache;
        if (!config.cache_dir.empty() && config.max_games == 0) {
            cache = (std::filesystem::path(config.cache_dir) / (std::filesystem::path(path).stem().string() + ".samples")).string();
            if (std::filesystem::exists(cache)) {
                auto cached = load_samples(cache, config.policy_tag);
                if (cached) {
                    all.insert(all.end(), cached->begin(), cached->end());
                    ++report.cached_files;
                    if (progress) progress(path, k + 1, config.wthor_files.size(), report.stats);
                    continue;
                }
                // A stale or damaged cache is rebuilt.
            }
        }
        auto file = data::read_wthor_file(path);
        if (!file) return file.error();
        std::vector<RawSample> samples;
        TargetStats stats;
        for (std::size_t g = 0; g < file->games.size() && games_left > 0; ++g, --games_left) {
            auto game = game_samples(file->games[g], file->header.theory_depth, config.policy, stats);
            if (!game) return make_error("WTHOR " + path + ", game " + std::to_string(g + 1) + ": " + game.error().message);
            samples.insert(samples.end(), game->begin(), game->end());
        }
        report.stats.add(stats);
        if (!cache.empty()) {
            auto saved = save_samples(cache, config.policy_tag, samples);
            if (!saved) return saved.error();
        }
        all.insert(all.end(), samples.begin(), samples.end());
        if (progress) progress(path, k + 1, config.wthor_files.size(), report.stats);
    }
    report.raw_samples = all.size();
    auto unique = deduplicate(std::move(all));
    report.unique_samples = unique.size();
    return unique;
}

Expected<std::vector<PhaseOutcome>> train_weights(std::span<const Sample> samples, const FitConfig& fit,
                                                  const std::string& output_path, bool resume,
                                                  const FitProgress& progress) {
    WeightSet set;
    if (resume && std::filesystem::exists(output_path)) {
        auto loaded = load_weights_file(output_path);
        if (!loaded) return make_error("cannot resume: " + loaded.error().message);
        set = std::move(*loaded);
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
