// Searched targets (engine/eval/pattern/training/search_targets.hpp) with a plain scorer, their
// checkpoint file, and refitting some phases of an existing weights file.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "engine/board/variant.hpp"
#include "engine/eval/pattern/features.hpp"
#include "engine/eval/pattern/training/search_targets.hpp"
#include "engine/eval/pattern/training/trainer.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::eval;

namespace {

std::string temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() / (std::string("reversi-search-targets-test-") + name)).string();
}

int empties_of(const Sample& s) { return 64 - popcount(s.player | s.opponent); }

// A scorer whose value depends only on the position: the disc difference plus the mobility difference.
int plain_score(const Position& p) {
    return popcount(p.player) - popcount(p.opponent) + popcount(p.moves()) - popcount(p.opponent_moves());
}

// plain_score, counting its calls (atomically: it may run on several threads).
std::function<PositionScorer()> counting_factory(std::atomic<int>& calls) {
    return [&calls]() -> PositionScorer {
        return [&calls](const Position& p) -> std::optional<int> {
            ++calls;
            return plain_score(p);
        };
    };
}

std::vector<Sample> game_samples_of_random_games(int count, std::uint64_t seed) {
    std::vector<Sample> out;
    for (const auto& pos : testing::random_positions(Variant::Standard, count, seed)) {
        if (pos.is_over()) continue;
        const auto [p, o] = canonical_form(pos.player, pos.opponent);
        out.push_back(Sample{p, o, static_cast<float>(popcount(p) % 7) - 3.0f, 1});
    }
    return deduplicate([&] {
        std::vector<RawSample> raw;
        for (const auto& s : out) raw.push_back({s.player, s.opponent, static_cast<std::int8_t>(s.target)});
        return raw;
    }());
}

}  // namespace

TEST_CASE("search targets: the scorer's value replaces or blends the targets in the range only") {
    const auto original = game_samples_of_random_games(3000, 5);
    std::atomic<int> calls{0};
    SearchTargetConfig config;
    config.min_empties = 30;
    config.max_empties = 45;
    config.scorer_factory = counting_factory(calls);
    for (const double weight : {1.0, 0.25}) {
        CAPTURE(weight);
        auto samples = original;
        config.weight = weight;
        calls = 0;
        const auto report = apply_search_targets(samples, config);
        REQUIRE_MESSAGE(report, (report ? "" : report.error().message));
        std::size_t in_range = 0;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const int e = empties_of(samples[i]);
            if (e < 30 || e > 45) {
                CHECK(samples[i].target == original[i].target);
                continue;
            }
            ++in_range;
            Position pos;
            pos.player = samples[i].player;
            pos.opponent = samples[i].opponent;
            const double expected = weight * plain_score(pos) + (1 - weight) * original[i].target;
            CHECK(samples[i].target == doctest::Approx(expected));
        }
        CHECK(in_range > 500);
        CHECK(report->selected == in_range);
        CHECK(report->searched == in_range);
        CHECK(calls == static_cast<int>(in_range));
        CHECK(report->declined == 0);
    }
    auto samples = original;
    config.weight = 1.5;
    CHECK_FALSE(apply_search_targets(samples, config));
}

TEST_CASE("search targets: a weight ramp blends by empties, linearly from the range's low end to its high end") {
    SearchTargetConfig config;
    config.min_empties = 30;
    config.max_empties = 60;
    config.weight = 0.5;
    CHECK(search_weight_at(config, 45) == 0.5);  // no ramp: one weight
    config.weight_high = 0.8;
    CHECK(search_weight_at(config, 30) == doctest::Approx(0.5));
    CHECK(search_weight_at(config, 45) == doctest::Approx(0.65));
    CHECK(search_weight_at(config, 60) == doctest::Approx(0.8));

    const auto original = game_samples_of_random_games(2000, 9);
    std::atomic<int> calls{0};
    config.scorer_factory = counting_factory(calls);
    auto samples = original;
    const auto report = apply_search_targets(samples, config);
    REQUIRE_MESSAGE(report, (report ? "" : report.error().message));
    int ramped = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const int e = empties_of(samples[i]);
        if (e < 30) continue;
        Position pos;
        pos.player = samples[i].player;
        pos.opponent = samples[i].opponent;
        const double w = 0.5 + 0.3 * (e - 30) / 30.0;
        CHECK(samples[i].target == doctest::Approx(w * plain_score(pos) + (1 - w) * original[i].target));
        ramped += e > 30 && plain_score(pos) != original[i].target ? 1 : 0;
    }
    CHECK(ramped > 100);
    config.weight_high = 1.5;
    CHECK_FALSE(apply_search_targets(samples, config));
}

TEST_CASE("search targets: a checkpoint resumes without searching again, and threads do not change the result") {
    const auto original = game_samples_of_random_games(4000, 9);
    const std::string path = temp_path("resume.ckpt");
    std::filesystem::remove(path);
    std::atomic<int> calls{0};
    SearchTargetConfig config;
    config.min_empties = 20;
    config.max_empties = 60;
    config.block = 100;
    config.tag = 77;
    config.checkpoint_path = path;
    config.scorer_factory = counting_factory(calls);

    auto first = original;
    const auto r1 = apply_search_targets(first, config);
    REQUIRE_MESSAGE(r1, (r1 ? "" : r1.error().message));
    CHECK(r1->searched == r1->selected);
    const int first_calls = calls;
    CHECK(first_calls == static_cast<int>(r1->selected));

    // A second run finds every score in the checkpoint.
    auto second = original;
    calls = 0;
    const auto r2 = apply_search_targets(second, config);
    REQUIRE(r2);
    CHECK(calls == 0);
    CHECK(r2->from_checkpoint == r1->selected);
    for (std::size_t i = 0; i < first.size(); ++i) CHECK(second[i].target == first[i].target);

    // Nothing to search: no scorer is made (reversi-train then needs no usable --search-weights, so a
    // checkpoint serves a training run whose feature layout the searching weights do not have).
    int made = 0;
    auto counting_maker = config;
    counting_maker.scorer_factory = [&made, &calls]() -> PositionScorer {
        ++made;
        return counting_factory(calls)();
    };
    auto again = original;
    REQUIRE(apply_search_targets(again, counting_maker));
    CHECK(made == 0);

    // An interrupted write (a chunk cut short) loses only that chunk: it is searched again.
    const auto size = std::filesystem::file_size(path);
    std::filesystem::resize_file(path, size - 700);
    auto third = original;
    calls = 0;
    config.threads = 2;
    const auto r3 = apply_search_targets(third, config);
    REQUIRE_MESSAGE(r3, (r3 ? "" : r3.error().message));
    CHECK(calls > 0);
    CHECK(calls <= 2 * 100);
    CHECK(r3->from_checkpoint + r3->searched == r1->selected);
    for (std::size_t i = 0; i < first.size(); ++i) CHECK(third[i].target == first[i].target);
    CHECK(std::filesystem::file_size(path) == size);

    // Other settings, or a damaged chunk: an error, nothing half-read.
    config.tag = 78;
    auto fourth = original;
    const auto other = apply_search_targets(fourth, config);
    REQUIRE_FALSE(other);
    CHECK(other.error().message.find("tag") != std::string::npos);
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(size / 2));
        f.put('\x5A');
    }
    const auto damaged = load_search_checkpoint(path, 77);
    REQUIRE_FALSE(damaged);
    CHECK(damaged.error().message.find("corrupted") != std::string::npos);
    std::filesystem::remove(path);
}

TEST_CASE("refitting some phases of an existing weights file keeps the others") {
    // Samples in phase 6 (36-41 empties) with a target a table can follow.
    std::vector<Sample> samples;
    for (const auto& pos : testing::random_positions(Variant::Standard, 6000, 3)) {
        if (pos.is_over() || phase_of(pos) != 6) continue;
        samples.push_back(Sample{pos.player, pos.opponent, static_cast<float>(plain_score(pos)), 1});
    }
    REQUIRE(samples.size() > 300);
    FitConfig fit;
    fit.iterations = 10;
    const std::string out = temp_path("refit.weights");
    std::filesystem::remove(out);
    REQUIRE(train_weights(samples, fit, out, false));
    auto fitted = load_weights_file(out);
    REQUIRE(fitted);

    WeightSet marked = *fitted;
    std::fill(marked.phase(5), marked.phase(5) + 20, 5);
    std::fill(marked.phase(6), marked.phase(6) + kWeightsPerPhase, 6);
    std::fill(marked.phase(7), marked.phase(7) + 20, 7);
    REQUIRE(save_weights_file(marked, out));
    const auto outcomes = train_weights(samples, fit, out, true, {}, 1u << 6);
    REQUIRE(outcomes);
    CHECK((*outcomes)[5].resumed);
    CHECK_FALSE((*outcomes)[6].resumed);
    auto refitted = load_weights_file(out);
    REQUIRE(refitted);
    CHECK(refitted->trained_mask == kAllPhasesMask);
    CHECK(refitted->phase(5)[19] == 5);
    CHECK(refitted->phase(7)[19] == 7);
    CHECK(std::equal(refitted->phase(6), refitted->phase(6) + kWeightsPerPhase, fitted->phase(6)));
    std::filesystem::remove(out);
}
