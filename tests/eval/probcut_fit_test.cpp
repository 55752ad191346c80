// Multi-ProbCut fitting: the shallow-depth rule, the least-squares line and sigma on synthetic data,
// and which cells the model keeps.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "engine/eval/probcut_fit.hpp"

using namespace reversi::eval;

TEST_CASE("probcut_shallow_depth: same parity as the node depth, about half of it, 0 at depth 2") {
    for (int d = ProbCutModel::kMinDepth; d <= ProbCutModel::kMaxDepth; ++d) {
        const int s = probcut_shallow_depth(d);
        CHECK(s >= (d == 2 ? 0 : 1));
        CHECK(s < d);
        CHECK((d - s) % 2 == 0);
        CHECK(std::abs(2 * s - d) <= 2);
    }
    CHECK(probcut_shallow_depth(2) == 0);  // the static evaluation
    CHECK(probcut_shallow_depth(3) == 1);
    CHECK(probcut_shallow_depth(6) == 2);
    CHECK(probcut_shallow_depth(8) == 4);
    CHECK(probcut_shallow_depth(13) == 7);
    CHECK(probcut_shallow_depth(14) == 6);
}

TEST_CASE("ProbCutStats recovers a line and its noise, and keeps only cells with enough samples") {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> value(0.0, 12.0);
    std::normal_distribution<double> noise(0.0, 3.0);
    ProbCutStats stats;
    for (int i = 0; i < 20000; ++i) {
        const double x = value(rng);
        stats.add(4, 4, 8, x, 0.9 * x + 1.5 + noise(rng));  // the model's pair for depth 8
        stats.add(4, 3, 8, x, 0.5 * x + noise(rng));        // another shallow depth: fitted, not kept
        if (i < 50) stats.add(5, 4, 8, x, x + noise(rng));  // too few samples for the model
        stats.add(4, 0, 2, x, 1.1 * x - 0.5 + noise(rng));  // depth 2 from the static evaluation
    }
    const ProbCutFit f = stats.fit(4, 4, 8);
    CHECK(f.n == 20000);
    CHECK(f.a == doctest::Approx(0.9).epsilon(0.02));
    CHECK(f.b == doctest::Approx(1.5).epsilon(0.1));
    CHECK(f.sigma == doctest::Approx(3.0).epsilon(0.05));
    CHECK(stats.fit(4, 3, 8).a == doctest::Approx(0.5).epsilon(0.03));
    CHECK(stats.count(5, 4, 8) == 50);
    CHECK(stats.count(4, 8, 4) == 0);  // shallow >= deep is ignored
    CHECK(stats.count(12, 1, 2) == 0);

    ProbCutStats other;
    other.merge(stats);
    CHECK(other.fit(4, 4, 8).sigma == doctest::Approx(f.sigma));

    const ProbCutModel m = stats.model(100);
    const ProbCutLine* line = m.line(4, 8);
    REQUIRE(line != nullptr);
    CHECK(line->shallow == 4);
    CHECK(line->a == doctest::Approx(0.9).epsilon(0.02));
    CHECK(line->sigma == doctest::Approx(3.0).epsilon(0.05));
    const ProbCutLine* static_line = m.line(4, 2);
    REQUIRE(static_line != nullptr);
    CHECK(static_line->shallow == 0);
    CHECK(static_line->a == doctest::Approx(1.1).epsilon(0.02));
    CHECK(static_line->b == doctest::Approx(-0.5).epsilon(0.2));
    CHECK(m.line(5, 8) == nullptr);
    CHECK(m.line(4, 7) == nullptr);
    CHECK(stats.model(30000).empty());
}
