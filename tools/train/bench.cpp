// reversi-train bench: evaluations per second on positions met in seeded random games.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

#include "engine/board/random_move.hpp"
#include "engine/board/variant.hpp"
#include "engine/eval/heuristic.hpp"
#include "engine/eval/pattern/baseline_evaluators.hpp"
#include "tools/train/commands.hpp"
#include "tools/train/evaluator_choice.hpp"

namespace reversi::train {

namespace {

std::vector<Position> random_game_positions(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    out.reserve(count);
    while (out.size() < count) {
        Position pos = start_position();
        while (!pos.is_over() && out.size() < count) {
            if (pos.must_pass()) pos = pos.pass();
            out.push_back(pos);
            pos = play_random_move(pos, rng);
        }
    }
    return out;
}

template <class F>
void time_it(const char* what, const std::vector<Position>& positions, int repeats, F&& f) {
    long long sink = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    for (int r = 0; r < repeats; ++r) {
        for (const auto& p : positions) sink += f(p);
    }
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double calls = static_cast<double>(positions.size()) * repeats;
    // CPU time is the figure to read on a shared machine (waiting for a core is not counted).
    std::printf("%-40s %8.2f M/s  %7.1f ns/call CPU  (wall %7.1f ns; checksum %lld)\n", what, calls / cpu / 1e6,
                cpu / calls * 1e9, wall / calls * 1e9, sink);
}

}  // namespace

int run_bench(const cli::ParsedArgs& args) {
    const auto count = args.get_int("positions", 200000, 1000, 100000000);
    if (!count) {
        std::fprintf(stderr, "reversi-train: %s\n", count.error().message.c_str());
        return 2;
    }
    auto pattern = load_pattern_evaluator(args);
    if (!pattern) return 1;
    const auto positions = random_game_positions(static_cast<std::size_t>(*count), 20261121);
    const int repeats = 5;
    std::printf("%zu positions from seeded random games, %d passes each\n", positions.size(), repeats);
    time_it("features, fast (extract_features)", positions, repeats, [](const Position& p) {
        eval::FeatureIndices f;
        eval::extract_features(p, f);
        return static_cast<long long>(f[0] + f[45]);
    });
    time_it("features, portable (board images)", positions, repeats, [](const Position& p) {
        eval::FeatureIndices f;
        eval::extract_features_portable(p, f);
        return static_cast<long long>(f[0] + f[45]);
    });
    time_it("features, reference (square by square)", positions, repeats, [](const Position& p) {
        eval::FeatureIndices f;
        eval::extract_features_reference(p, f);
        return static_cast<long long>(f[0] + f[45]);
    });
    time_it("pattern evaluate (fast features)", positions, repeats,
            [&](const Position& p) { return static_cast<long long>(pattern->evaluate(p)); });
    const auto& weights = pattern->weights();
    time_it("pattern evaluate (reference features)", positions, repeats, [&](const Position& p) {
        eval::FeatureIndices f;
        eval::extract_features_reference(p, f);
        const std::int16_t* w = weights.phase(eval::phase_of(p));
        int sum = 0;
        for (auto i : f) sum += w[i];
        return static_cast<long long>(eval::units_to_discs(sum));
    });
    const HeuristicEvaluator heuristic;
    time_it("heuristic evaluate (engine/eval/heuristic)", positions, repeats,
            [&](const Position& p) { return static_cast<long long>(heuristic.evaluate(p)); });
    const eval::MobilityCornerEvaluator mobility;
    time_it("mobility+corners baseline evaluate", positions, repeats,
            [&](const Position& p) { return static_cast<long long>(mobility.evaluate(p)); });
    return 0;
}

}  // namespace reversi::train
