// reversi-train probcut: calibrates Multi-ProbCut. For WTHOR positions, the static evaluation and
// fixed-depth NegaScout values with the pattern evaluation at every depth 1..D (D from the schedule: the
// first positions are searched deepest); per phase and depth pair, the least-squares line deep = a * shallow + b and
// the residual sigma (engine/eval/probcut_fit.hpp). Prints, per node depth, sigma for every shallow depth (the data
// behind the shallow-depth rule), then the model; with --out, writes the --weights file (or the
// embedded default) with the model added. With --keep-model the model of --weights stays and the run
// only fills the cells it lacks (e.g. a run of deeper depths only).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/data/wthor.hpp"
#include "engine/eval/probcut_fit.hpp"
#include "tools/train/commands.hpp"
#include "tools/train/evaluator_choice.hpp"
#include "tools/train/search_measure.hpp"

namespace reversi::train {

namespace {

// The table is cleared per position, not per depth: depth d reuses depth d-1's entries for its move
// ordering (as iterative deepening does). Cutoffs need an entry of at least the remaining depth, and in
// Othello a position is reached only at one ply (one disc per move; passes aside), so values stay
// those of a fixed-depth search.
int search_value(const Position& pos, const Evaluator& evaluator, int depth, TranspositionTable& tt) {
    return fixed_depth_negascout(pos, evaluator, depth, tt).root.value;
}

// "D:N,...": the first N positions are searched to depth D (a position's depth is the largest D whose N
// covers it). Sorted by depth.
struct Step {
    int depth = 0;
    std::size_t positions = 0;
};

Expected<std::vector<Step>> parse_schedule(const std::string& text) {
    std::vector<Step> steps;
    for (const char* p = text.c_str(); *p;) {
        char* end = nullptr;
        const long d = std::strtol(p, &end, 10);
        if (end == p || *end != ':' || d < 2 || d > eval::ProbCutModel::kMaxDepth) {
            return make_error("--schedule: expected e.g. 10:2000,12:800 with depths 2-" +
                              std::to_string(eval::ProbCutModel::kMaxDepth));
        }
        p = end + 1;
        const long n = std::strtol(p, &end, 10);
        if (end == p || n < 1 || n > 1000000 || (*end != ',' && *end != '\0')) {
            return make_error("--schedule: position counts are 1-1000000, e.g. 10:2000,12:800");
        }
        steps.push_back({static_cast<int>(d), static_cast<std::size_t>(n)});
        p = *end == ',' ? end + 1 : end;
    }
    if (steps.empty()) return make_error("--schedule is empty");
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.depth < b.depth; });
    return steps;
}

int depth_of(const std::vector<Step>& steps, std::size_t index) {
    int depth = 0;
    for (const Step& s : steps) {
        if (index < s.positions) depth = std::max(depth, s.depth);
    }
    return depth;
}

// The phases the calibration positions come from: those of 12..53 empties.
constexpr int kFirstPhase = 12 / eval::kEmptiesPerPhase;
constexpr int kLastPhase = 53 / eval::kEmptiesPerPhase;
constexpr int kPhases = kLastPhase - kFirstPhase + 1;

// The most recent WTHOR files first; from game i, the positions whose empty count is 12..53 and
// congruent to i modulo 7 (a spread over the phases without taking neighbours of one game), then
// interleaved by phase (first, second, ..., last, first, ...) so that any prefix is balanced over them.
Expected<std::vector<Position>> wthor_positions(const std::string& dir, std::size_t count) {
    std::vector<std::vector<Position>> by_phase(kPhases);
    const auto enough = [&] {
        return std::all_of(by_phase.begin(), by_phase.end(),
                           [&](const auto& b) { return b.size() * kPhases >= count + kPhases; });
    };
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".wtb") files.push_back(entry.path().string());
    }
    if (ec || files.empty()) return make_error("no .wtb file in " + dir);
    std::sort(files.rbegin(), files.rend());
    std::vector<Position> positions;
    for (const auto& path : files) {
        auto file = data::read_wthor_file(path);
        if (!file) return file.error();
        for (std::size_t g = 0; g < file->games.size() && !enough(); ++g) {
            auto replay = data::replay_game(file->games[g]);
            if (!replay) continue;
            for (const auto& pos : replay->before_move) {
                const int e = pos.empty_count();
                if (e >= 12 && e <= 53 && static_cast<std::size_t>(e % 7) == g % 7) {
                    by_phase[static_cast<std::size_t>(eval::phase_of(pos) - kFirstPhase)].push_back(pos);
                }
            }
        }
        if (enough()) break;
    }
    for (std::size_t k = 0; positions.size() < count; ++k) {
        bool any = false;
        for (auto& bucket : by_phase) {
            if (k < bucket.size() && positions.size() < count) positions.push_back(bucket[k]), any = true;
        }
        if (!any) break;  // fewer games than positions asked for
    }
    return positions;
}

// --keep-model: the input weights' calibrated cells stay as they are; this run only adds the cells they
// lack (a run of a few depths extends the stored model instead of replacing it).
void keep_input_cells(eval::ProbCutModel& model, const eval::ProbCutModel& input) {
    for (int p = 0; p < eval::kPhaseCount; ++p) {
        for (int d = eval::ProbCutModel::kMinDepth; d <= eval::ProbCutModel::kMaxDepth; ++d) {
            if (const eval::ProbCutLine* kept = input.line(p, d)) {
                model.lines[static_cast<std::size_t>(p)][static_cast<std::size_t>(d)] = *kept;
            }
        }
    }
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// values[i][d]: the depth-d value of position i, searched for d = 1..depth_of(i) by `threads` threads
// (d = 0 is the static evaluation, the shallow value of a depth-2 node); progress on stderr.
std::vector<std::vector<int>> search_values(const std::vector<Position>& positions, const std::vector<Step>& schedule,
                                            const eval::PatternEvaluator& pattern, int threads, bool clear_per_depth) {
    std::vector<std::vector<int>> values(positions.size());
    double work = 0;  // progress in units of "positions weighted by 3^depth" (about the search cost)
    for (std::size_t i = 0; i < positions.size(); ++i) work += std::pow(3.0, depth_of(schedule, i));
    std::atomic<std::size_t> next{0};
    std::mutex progress_mutex;
    double done = 0;
    std::size_t finished = 0;
    const auto start = std::chrono::steady_clock::now();
    auto last_report = start;
    const auto worker = [&] {
        TranspositionTable tt(16);
        for (std::size_t i = next++; i < positions.size(); i = next++) {
            const int depth = depth_of(schedule, i);
            std::vector<int> v(static_cast<std::size_t>(depth) + 1, 0);
            tt.clear();
            v[0] = pattern.evaluate(positions[i]);
            for (int d = 1; d <= depth; ++d) {
                if (clear_per_depth) tt.clear();
                v[static_cast<std::size_t>(d)] = search_value(positions[i], pattern, d, tt);
            }
            values[i] = std::move(v);
            const std::lock_guard lock(progress_mutex);
            done += std::pow(3.0, depth);
            ++finished;
            const auto now = std::chrono::steady_clock::now();
            if (now - last_report > std::chrono::seconds(20) || finished == positions.size()) {
                last_report = now;
                const double elapsed = std::chrono::duration<double>(now - start).count();
                std::fprintf(stderr, "probcut: %zu/%zu positions, %.0f%% of the work, %.0f s, about %.0f s left\n",
                             finished, positions.size(), 100.0 * done / work, elapsed,
                             elapsed * (work - done) / std::max(done, 1.0));
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    return values;
}

// The residual sigma of each (node depth d, shallow depth s) pair: the mean over the phases with enough
// positions.
void print_sigma_table(const eval::ProbCutStats& stats, int max_depth, long long min_samples) {
    std::printf("sigma by shallow depth s, phases %d-%d pooled (mean of the per-phase sigmas):\n%5s", kFirstPhase,
                kLastPhase, "d\\s");
    for (int s = 0; s < max_depth; ++s) std::printf(" %5d", s);
    std::printf("\n");
    for (int d = 2; d <= max_depth; ++d) {
        std::printf("%5d", d);
        for (int s = 0; s < max_depth; ++s) {
            double sum = 0;
            int n = 0;
            for (int p = kFirstPhase; p <= kLastPhase && s < d; ++p) {
                const auto f = stats.fit(p, s, d);
                if (f.n >= static_cast<double>(min_samples)) sum += f.sigma, ++n;
            }
            if (n > 0)
                std::printf(" %5.2f", sum / n);
            else
                std::printf(" %5s", "");
        }
        std::printf("\n");
    }
}

// The model's cells, a line each (`input`: the --weights' model whose cells --keep-model kept, or null).
void print_model(const eval::ProbCutModel& model, const eval::ProbCutStats& stats, const eval::ProbCutModel* input,
                 long long min_samples) {
    std::printf("\nmodel (cells with at least %lld positions; shallow depth s = probcut_shallow_depth(d)):\n",
                min_samples);
    if (input) std::printf("(n \"kept\": the cell of the --weights, kept by --keep-model)\n");
    std::printf("%6s %8s %5s %3s %6s %7s %7s %7s\n", "phase", "empties", "d", "s", "n", "a", "b", "sigma");
    for (int p = 0; p < eval::kPhaseCount; ++p) {
        for (int d = eval::ProbCutModel::kMinDepth; d <= eval::ProbCutModel::kMaxDepth; ++d) {
            const auto* line = model.line(p, d);
            if (!line) continue;
            const bool kept = input && input->line(p, d) != nullptr;
            const std::string n =
                kept ? "kept" : std::to_string(static_cast<long long>(stats.count(p, line->shallow, d)));
            std::printf("%6d %4d-%-3d %5d %3d %6s %7.3f %7.2f %7.2f\n", p, p * eval::kEmptiesPerPhase,
                        p == eval::kPhaseCount - 1 ? 60 : p * eval::kEmptiesPerPhase + eval::kEmptiesPerPhase - 1, d,
                        line->shallow, n.c_str(), line->a, line->b, line->sigma);
        }
    }
}

}  // namespace

int run_probcut(const cli::ParsedArgs& args) {
    const auto fail = [](const std::string& message, int code) {
        std::fprintf(stderr, "reversi-train: %s\n", message.c_str());
        return code;
    };
    const auto schedule = parse_schedule(args.get("schedule", "10:2100,11:1400,12:910"));
    if (!schedule) return fail(schedule.error().message, 2);
    const auto threads = args.get_int("threads", 1, 1, 64);
    if (!threads) return fail(threads.error().message, 2);
    const auto min_samples = args.get_int("min-samples", 100, 2, 1000000);
    if (!min_samples) return fail(min_samples.error().message, 2);
    auto pattern = load_pattern_evaluator(args);
    if (!pattern) return 1;

    std::size_t count = 0;
    for (const Step& s : *schedule) count = std::max(count, s.positions);
    const auto positions = wthor_positions(args.get("wthor", "../shared/data/wthor"), count);
    if (!positions) return fail(positions.error().message, 1);
    const int max_depth = schedule->back().depth;

    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = cpu_seconds();
    const auto values =
        search_values(*positions, *schedule, *pattern, static_cast<int>(*threads), args.has("clear-per-depth"));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpu_seconds() - cpu_start;  // all threads of the process

    eval::ProbCutStats stats;
    for (std::size_t i = 0; i < positions->size(); ++i) {
        const int phase = eval::phase_of((*positions)[i]);
        const auto& v = values[i];
        for (std::size_t d = 2; d < v.size(); ++d) {
            for (std::size_t s = 0; s < d; ++s) stats.add(phase, static_cast<int>(s), static_cast<int>(d), v[s], v[d]);
        }
    }
    std::printf("%zu WTHOR positions (12-53 empties), schedule %s, %.0f s CPU (%.0f s wall, %lld threads)\n",
                positions->size(), args.get("schedule", "10:2100,11:1400,12:910").c_str(), cpu, wall, *threads);
    std::printf("deep = a * shallow + b, sigma = residual standard deviation (discs)\n\n");
    print_sigma_table(stats, max_depth, *min_samples);

    eval::ProbCutModel model = stats.model(static_cast<double>(*min_samples));
    const std::optional<eval::ProbCutModel>& input = pattern->weights().probcut;
    const bool keep = args.has("keep-model") && input.has_value();
    if (keep) keep_input_cells(model, *input);
    print_model(model, stats, keep ? &*input : nullptr, *min_samples);
    if (!args.has("out")) return 0;
    eval::WeightSet set = pattern->weights();
    set.probcut = model;
    if (model.empty()) return fail("no cell has enough positions: nothing to store", 1);
    const auto saved = eval::save_weights_file(set, args.get("out", ""));
    if (!saved) return fail(saved.error().message, 1);
    std::printf("\nwrote %s: the weights of %s with this model\n", args.get("out", "").c_str(),
                args.has("weights") ? args.get("weights", "").c_str() : "the embedded default");
    return 0;
}

}  // namespace reversi::train
