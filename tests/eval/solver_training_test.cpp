// Target building (with a plain minimax as the exact solver) and training on tiny sets.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "engine/board/random_move.hpp"
#include "engine/board/variant.hpp"
#include "engine/data/wthor_writer.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/eval/pattern/training/trainer.hpp"
#include "tests/support/game_records.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using namespace reversi::eval;

namespace {

int minimax(const Position& pos) {
    if (pos.is_over()) return pos.final_score();
    if (pos.must_pass()) return -minimax(pos.pass());
    int best = -100;
    for (int sq : squares(pos.moves())) best = std::max(best, -minimax(pos.play(sq)));
    return best;
}

// Plain minimax as the trainer's exact solver: the score and the first best move.
std::optional<ExactScore> minimax_solver(const Position& pos) {
    if (pos.must_pass()) {
        const auto r = minimax_solver(pos.pass());
        return ExactScore{-r->score, kPass};
    }
    ExactScore best{-100, kNoMove};
    for (int sq : squares(pos.moves())) {
        const int v = -minimax(pos.play(sq));
        if (v > best.score) best = ExactScore{v, static_cast<Move>(sq)};
    }
    return best;
}

// minimax_solver that counts its calls.
ExactSolver counting_minimax_solver(int& calls) {
    return [&calls](const Position& p) {
        ++calls;
        return minimax_solver(p);
    };
}

// A game of random moves down to `empties` empties, then the first best move of plain minimax to the end.
data::WthorGame random_then_best_game(std::mt19937_64& rng, int empties) {
    return testing::play_recorded_game([&rng, empties](const Position& pos) {
        return pos.empty_count() > empties ? random_legal_move(pos, rng) : minimax_solver(pos)->best_move;
    });
}

std::string train_temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() / (std::string("reversi-train-test-") + name)).string();
}

// Random positions with a target that a pattern table can represent exactly (a hidden random table),
// plus noise: fitting must recover most of it.
std::vector<Sample> synthetic_samples(int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<double> hidden(kWeightsPerPhase);
    for (auto& h : hidden) h = static_cast<double>(rng() % 2001) / 1000.0 - 1.0;
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<Sample> out;
    for (const auto& pos : testing::random_positions(Variant::Standard, count * 3, seed)) {
        if (pos.is_over() || phase_of(pos) != 6) continue;  // 36-41 empties
        FeatureIndices f{};
        extract_features(pos, f);
        double t = 0;
        for (auto i : f) t += hidden[i];
        out.push_back(Sample{pos.player, pos.opponent, static_cast<float>(t + noise(rng)), 1});
    }
    return out;
}

}  // namespace

TEST_CASE("symmetric duplicates merge with the mean target") {
    const Position a = start_position().play(make_square(5, 4));  // f5
    const Position b = start_position().play(make_square(4, 5));  // e6: a symmetric image of f5
    const auto ca = canonical_form(a.player, a.opponent);
    CHECK(ca == canonical_form(b.player, b.opponent));
    std::vector<RawSample> raw = {{ca.first, ca.second, 4}, {ca.first, ca.second, -2}, {1, 2, 7}};
    const auto merged = deduplicate(raw);
    REQUIRE(merged.size() == 2);
    const auto& s = merged[0].player == ca.first ? merged[0] : merged[1];
    CHECK(s.target == doctest::Approx(1.0));
    CHECK(s.count == 2);
}

TEST_CASE("fitting a tiny synthetic set cuts the error and is deterministic") {
    const auto samples = synthetic_samples(20000, 21);
    REQUIRE(samples.size() > 3000);
    FitConfig config;
    config.iterations = 40;
    config.lambda = 1.0;
    std::vector<std::int16_t> w1(kWeightsPerPhase), w2(kWeightsPerPhase);
    const auto report = fit_phase(samples, 6, config, w1.data());
    CHECK(report.train_count + report.test_count == samples.size());
    CHECK(report.test_count > 100);
    MESSAGE("zero MAE " << report.zero_test_mae << ", train MAE " << report.train_mae << ", test MAE "
                        << report.test_mae);
    CHECK(report.train_mae < 0.5 * report.zero_train_mae);
    CHECK(report.test_mae < report.zero_test_mae);
    const auto again = fit_phase(samples, 6, config, w2.data());
    CHECK(w1 == w2);
    CHECK(again.test_mae == report.test_mae);

    // Overlap: more training positions (from the neighbouring phases), the same held-out ones.
    std::vector<Sample> wider = samples;
    for (const auto& pos : testing::random_positions(Variant::Standard, 20000, 23)) {
        if (pos.empty_count() == 35 || pos.empty_count() == 42)
            wider.push_back(Sample{pos.player, pos.opponent, 1.0f, 1});
    }
    config.overlap = 1;
    const auto overlapped = fit_phase(wider, 6, config, w2.data());
    CHECK(overlapped.test_count == report.test_count);
    CHECK(overlapped.train_count > report.train_count);
    config.overlap = 0;

    // A count threshold freezes the rarely seen weights at 0.
    config.min_count = 3;
    const auto pruned = fit_phase(samples, 6, config, w2.data());
    CHECK(pruned.active_weights < report.active_weights);
    CHECK(pruned.active_weights > 0);
    const auto nonzero = [](const std::vector<std::int16_t>& w) {
        return std::count_if(w.begin(), w.end(), [](auto v) { return v != 0; });
    };
    CHECK(nonzero(w2) <= static_cast<long>(pruned.active_weights));
    CHECK(nonzero(w2) < nonzero(w1));
}

TEST_CASE("a warm start refines a table: from zero it is the cold fit, a huge lambda or count keeps the prior") {
    const auto a = synthetic_samples(20000, 21);
    const auto b = synthetic_samples(20000, 22);  // another hidden table, other positions
    FitConfig config;
    config.iterations = 40;
    config.lambda = 1.0;
    std::vector<std::int16_t> cold(kWeightsPerPhase), w(kWeightsPerPhase, 0);
    const auto cold_report = fit_phase(a, 6, config, cold.data());
    config.warm_start = true;
    const auto from_zero = fit_phase(a, 6, config, w.data());
    CHECK(w == cold);
    CHECK(from_zero.prior_test_mae == doctest::Approx(cold_report.zero_test_mae));
    CHECK(from_zero.test_mae == cold_report.test_mae);

    // Refined on b, the table of a fits b better than it did.
    w = cold;
    const auto refined = fit_phase(b, 6, config, w.data());
    MESSAGE("b's test MAE with a's table " << refined.prior_test_mae << ", refined " << refined.test_mae);
    CHECK(refined.test_mae < 0.8 * refined.prior_test_mae);
    CHECK(w != cold);

    // A huge lambda pins every weight to the prior; so does a count no weight reaches.
    w = cold;
    config.lambda = 1e12;
    (void)fit_phase(b, 6, config, w.data());
    CHECK(w == cold);
    config.lambda = 1.0;
    config.min_count = 1000000;
    const auto frozen = fit_phase(b, 6, config, w.data());
    CHECK(frozen.active_weights == 0);
    CHECK(w == cold);
    config.min_count = 1;

    // Only the positions with min_empties..max_empties empties are fitted and tested.
    config.min_empties = 38;
    config.max_empties = 39;
    const auto narrow = fit_phase(b, 6, config, w.data());
    const auto in_range = std::count_if(b.begin(), b.end(), [](const Sample& s) {
        const int e = empties_of(Position{s.player, s.opponent});
        return e >= 38 && e <= 39;
    });
    CHECK(in_range > 100);
    CHECK(narrow.train_count + narrow.test_count == static_cast<std::size_t>(in_range));
}

TEST_CASE("training from WTHOR games: error drops, the file round-trips, resume keeps fitted phases") {
    const std::string dir = testing::shared_data_dir();
    if (dir.empty()) {
        MESSAGE("skipped: ../shared/data is absent");
        return;
    }
    BuildConfig build;
    build.wthor_files = {dir + "/wthor/WTH_1984.wtb", dir + "/wthor/WTH_1985.wtb"};
    build.max_games = 600;
    build.policy.exact_empties = 6;
    build.policy.solver = [](const Position& p) { return p.empty_count() <= 6 ? minimax_solver(p) : std::nullopt; };
    BuildReport report;
    auto samples = build_training_set(build, report);
    REQUIRE_MESSAGE(samples, (samples ? "" : samples.error().message));
    CHECK(report.stats.games == 600);
    CHECK(report.stats.exact > 0);
    CHECK(report.stats.theoretical > 0);
    CHECK(report.unique_samples < report.raw_samples);

    FitConfig fit;
    fit.iterations = 15;
    const std::string out = train_temp_path("wthor.weights");
    std::filesystem::remove(out);
    auto outcomes = train_weights(*samples, fit, out, false);
    REQUIRE(outcomes);
    for (const auto& o : *outcomes) {
        if (o.report.train_count < 500) continue;
        CAPTURE(o.report.phase);
        CHECK(o.report.train_mae < o.report.zero_train_mae);
    }
    auto evaluator = PatternEvaluator::from_file(out);
    REQUIRE_MESSAGE(evaluator, (evaluator ? "" : evaluator.error().message));

    // Resume: a file with only phase 0 fitted gets the other phases; phase 0 is kept as it was.
    auto loaded = load_weights_file(out);
    REQUIRE(loaded);
    WeightSet partial = *loaded;
    partial.trained_mask = 1;
    for (int p = 1; p < kPhaseCount; ++p) std::fill(partial.phase(p), partial.phase(p) + kWeightsPerPhase, 0);
    std::fill(partial.phase(0), partial.phase(0) + 10, 7);  // marks phase 0
    REQUIRE(save_weights_file(partial, out));
    auto resumed = train_weights(*samples, fit, out, true);
    REQUIRE(resumed);
    CHECK((*resumed)[0].resumed);
    CHECK_FALSE((*resumed)[1].resumed);
    auto final_set = load_weights_file(out);
    REQUIRE(final_set);
    CHECK(final_set->trained_mask == kAllPhasesMask);
    CHECK(final_set->phase(0)[3] == 7);
    CHECK(std::equal(final_set->weights.begin() + kWeightsPerPhase, final_set->weights.end(),
                     loaded->weights.begin() + kWeightsPerPhase));  // deterministic refit
    std::filesystem::remove(out);
}

TEST_CASE("sample caches round-trip and reject damage or another policy") {
    const std::vector<RawSample> samples = {{1, 2, -5}, {0x8000000000000000ULL, 4, 64}, {7, 8, -64}};
    const std::string path = train_temp_path("cache.samples");
    REQUIRE(save_samples(path, 42, samples));
    auto back = load_samples(path, 42);
    REQUIRE(back);
    CHECK(*back == samples);
    CHECK_FALSE(load_samples(path, 43));
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(25);
    f.put('\x55');
    f.close();
    auto damaged = load_samples(path, 42);
    REQUIRE_FALSE(damaged);
    CHECK(damaged.error().message.find("checksum") != std::string::npos);
    std::filesystem::resize_file(path, 30);
    CHECK_FALSE(load_samples(path, 42));
    std::filesystem::remove(path);
}

TEST_CASE("targets of one game: exact below the limit, theoretical above the theory depth, blended between") {
    // A random game played to the end, as a WTHOR record.
    std::mt19937_64 rng(17);
    data::WthorGame game =
        testing::play_recorded_game([&rng](const Position& pos) { return random_legal_move(pos, rng); });
    game.theoretical_black_score = 40;  // black +16 from 24 empties on, by decree
    TargetPolicy policy;
    policy.exact_empties = 8;
    int calls = 0;
    policy.solver = counting_minimax_solver(calls);
    TargetStats stats;
    auto samples = game_samples(game, 24, policy, stats);
    REQUIRE(samples);
    REQUIRE(samples->size() == game.moves.size());
    auto replay = data::replay_game(game);
    REQUIRE(replay);
    int anchor_black = 0;
    for (const auto& p : replay->before_move) {
        if (p.empty_count() == 8) anchor_black = p.side == Color::Black ? minimax(p) : -minimax(p);
    }
    for (std::size_t i = 0; i < samples->size(); ++i) {
        const Position& p = replay->before_move[i];
        const int e = p.empty_count();
        const int sign = p.side == Color::Black ? 1 : -1;
        const int target = (*samples)[i].target;
        CAPTURE(e);
        if (e <= 8) {
            CHECK(target == minimax(p));
        } else if (e >= 24) {
            CHECK(target == sign * 16);
        } else {
            const double t = (e - 8) / 16.0;
            CHECK(target == sign * static_cast<int>(std::lround(t * 16 + (1 - t) * anchor_black)));
        }
    }
    CHECK(stats.exact == 8);
    CHECK(stats.blended == 15);
    CHECK(stats.solves == static_cast<std::uint64_t>(calls));
    CHECK(calls <= 8);
}

TEST_CASE("targets of one game: after the solver's best move the next position takes its score unsolved") {
    // Random moves down to 10 empties, then the first best move of plain minimax to the end: every
    // other position on the solved part needs no solve, and every target is still the exact score.
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        std::mt19937_64 rng(seed);
        data::WthorGame game = random_then_best_game(rng, 10);
        game.theoretical_black_score = 32;
        TargetPolicy policy;
        policy.exact_empties = 10;
        int calls = 0;
        policy.solver = counting_minimax_solver(calls);
        TargetStats stats;
        auto samples = game_samples(game, 24, policy, stats);
        REQUIRE(samples);
        auto replay = data::replay_game(game);
        REQUIRE(replay);
        for (std::size_t i = 0; i < samples->size(); ++i) {
            const Position& p = replay->before_move[i];
            if (p.empty_count() <= 10) CHECK((*samples)[i].target == minimax(p));
        }
        CAPTURE(seed);
        CHECK(stats.exact >= 9);
        CHECK(calls * 2 <= static_cast<int>(stats.exact) + 1);  // at most every other position solved
    }
}

TEST_CASE("training set: two build threads give the same samples as one") {
    const std::string dir = testing::shared_data_dir();
    if (dir.empty()) {
        MESSAGE("skipped: ../shared/data is absent");
        return;
    }
    BuildConfig build;
    build.wthor_files = {dir + "/wthor/WTH_1977.wtb", dir + "/wthor/WTH_1978.wtb", dir + "/wthor/WTH_1979.wtb",
                         dir + "/wthor/WTH_1980.wtb"};
    build.policy.exact_empties = 6;
    std::atomic<int> factories{0};
    build.solver_factory = [&factories]() -> ExactSolver {
        ++factories;  // called on each build thread before it starts
        return [](const Position& p) { return p.empty_count() <= 6 ? minimax_solver(p) : std::nullopt; };
    };
    BuildReport one_report;
    auto one = build_training_set(build, one_report);
    REQUIRE(one);
    CHECK(factories == 1);
    build.threads = 2;
    BuildReport two_report;
    std::vector<std::size_t> progress;
    auto two = build_training_set(build, two_report,
                                  [&](const std::string&, std::size_t i, std::size_t n, const TargetStats&) {
                                      CHECK(n == 4);
                                      progress.push_back(i);
                                  });
    REQUIRE(two);
    CHECK(progress == std::vector<std::size_t>{1, 2, 3, 4});
    CHECK(two_report.stats.games == one_report.stats.games);
    CHECK(two_report.stats.exact == one_report.stats.exact);
    CHECK(two_report.stats.solves == one_report.stats.solves);
    REQUIRE(one->size() == two->size());
    for (std::size_t i = 0; i < one->size(); ++i) {
        REQUIRE((*one)[i].player == (*two)[i].player);
        REQUIRE((*one)[i].opponent == (*two)[i].opponent);
        REQUIRE((*one)[i].target == (*two)[i].target);
        REQUIRE((*one)[i].count == (*two)[i].count);
    }
}

TEST_CASE("targets of one game: perfect play from the theory depth gives the solver's targets without solves") {
    // Random moves down to 8 empties, then perfect play (the last best move of plain minimax, unlike the
    // trainer's solver, which takes the first): the file's theoretical score is the final score from
    // 8 empties on. With perfect_from_theory, no position is solved there and every target is the same.
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        CAPTURE(seed);
        std::mt19937_64 rng(seed);
        data::WthorGame game = testing::play_recorded_game([&rng](const Position& pos) {
            if (pos.empty_count() > 8) return random_legal_move(pos, rng);
            Move last_best = kNoMove;
            const int value = minimax(pos);
            for (int sq : squares(pos.moves())) {
                if (-minimax(pos.play(sq)) == value) last_best = static_cast<Move>(sq);
            }
            return last_best;
        });
        game.theoretical_black_score = game.black_score;
        for (const int limit : {6, 8, 10}) {  // 10: solves above the theory depth, then the shortcut
            CAPTURE(limit);
            TargetPolicy policy;
            policy.exact_empties = limit;
            int solved_calls = 0, perfect_calls = 0;
            policy.solver = counting_minimax_solver(solved_calls);
            TargetStats solved_stats, perfect_stats;
            auto solved = game_samples(game, 8, policy, solved_stats);
            policy.solver = counting_minimax_solver(perfect_calls);
            policy.perfect_from_theory = true;
            auto perfect = game_samples(game, 8, policy, perfect_stats);
            REQUIRE(solved);
            REQUIRE(perfect);
            CHECK(*perfect == *solved);
            CHECK(perfect_stats.exact == solved_stats.exact);
            CHECK(perfect_stats.blended == solved_stats.blended);
            CHECK(solved_calls > 0);
            if (limit <= 8) {
                CHECK(perfect_calls == 0);
                CHECK(perfect_stats.solves == 0);
            } else {  // only the positions with 9 or 10 empties (random moves there) are solved
                CHECK(perfect_calls > 0);
                CHECK(perfect_calls < solved_calls);
            }
        }
        // A file whose score is not perfect play's (one disc off) gives other targets: the check that
        // the trainer makes on every kPerfectPlayCheck-th game catches it.
        game.theoretical_black_score = game.black_score + 1;
        TargetPolicy policy;
        policy.exact_empties = 8;
        policy.solver = minimax_solver;
        TargetStats stats;
        auto solved = game_samples(game, 8, policy, stats);
        policy.perfect_from_theory = true;
        auto wrong = game_samples(game, 8, policy, stats);
        REQUIRE(solved);
        REQUIRE(wrong);
        CHECK(*wrong != *solved);
    }
}

TEST_CASE("training set: self-play files marked perfect are built without solves, checked, and cached apart") {
    const std::string dir = train_temp_path("perfect");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    // 70 games: random moves to 8 empties, then perfect play; the theoretical score is the final score.
    data::WthorFile file;
    file.header = data::WthorHeader{2026, 11, 30, 0, 2026, 8, 0, 8};
    std::mt19937_64 rng(5);
    for (int g = 0; g < 70; ++g) {
        file.games.push_back(random_then_best_game(rng, 8));
        file.games.back().theoretical_black_score = file.games.back().black_score;
    }
    const std::string path = dir + "/WTH_SELF_S1.wtb";
    REQUIRE(data::write_wthor_file(path, file));
    BuildConfig build;
    build.wthor_files = {path};
    build.policy.exact_empties = 8;
    std::atomic<int> calls{0};
    build.solver_factory = [&calls]() -> ExactSolver {
        return [&calls](const Position& p) {
            ++calls;
            return minimax_solver(p);
        };
    };
    BuildReport solved_report;
    auto solved = build_training_set(build, solved_report);
    REQUIRE(solved);
    const int solved_calls = calls.exchange(0);
    build.perfect_play_files = {path};
    build.cache_dir = dir + "/cache";
    std::filesystem::create_directories(build.cache_dir);
    BuildReport perfect_report;
    auto perfect = build_training_set(build, perfect_report);
    REQUIRE(perfect);
    // Two games of 70 are checked (0 and 64): a few solves instead of every game's.
    CHECK(calls > 0);
    CHECK(calls * 10 < solved_calls);
    CHECK(perfect_report.stats.solves == static_cast<std::uint64_t>(calls));
    CHECK(perfect_report.stats.exact == solved_report.stats.exact);
    REQUIRE(perfect->size() == solved->size());
    for (std::size_t i = 0; i < perfect->size(); ++i) {
        REQUIRE((*perfect)[i].player == (*solved)[i].player);
        REQUIRE((*perfect)[i].target == (*solved)[i].target);
    }
    // Its cache is read back as a perfect-play file only.
    BuildReport again;
    REQUIRE(build_training_set(build, again));
    CHECK(again.cached_files == 1);
    build.perfect_play_files.clear();
    BuildReport unmarked;
    REQUIRE(build_training_set(build, unmarked));
    CHECK(unmarked.cached_files == 0);
    // A game 64 whose score is off by one disc: the check names it.
    file.games[64].theoretical_black_score += 1;
    REQUIRE(data::write_wthor_file(path, file));
    std::filesystem::remove_all(build.cache_dir);
    std::filesystem::create_directories(build.cache_dir);
    build.perfect_play_files = {path};
    BuildReport bad_report;
    auto bad = build_training_set(build, bad_report);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("game 65: not played perfectly") != std::string::npos);
    std::filesystem::remove_all(dir);
}
