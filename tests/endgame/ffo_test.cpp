// FFO positions #1-#25 (14-19 empties) solved with the scores and best moves read from the OBF files.
#include <doctest/doctest.h>

#include <atomic>
#include <string>

#include "engine/board/notation.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;

namespace {

void solve_file(const std::string& name, int first_number, int last_number, int threads, int selective_from = 20) {
    const std::string dir = testing::shared_data_dir();
    if (dir.empty()) {
        MESSAGE("skipped: the shared data folder ../shared/data is absent");
        return;
    }
    const auto entries = read_obf_file(dir + "/ffo/" + name);
    REQUIRE(entries);
    endgame::EndgameSolver solver(64);
    std::atomic<bool> stop{false};
    endgame::SolveOptions options;
    options.threads = threads;
    options.selective_min_empties = selective_from;
    options.probcut_empties = 12;
    for (int n = first_number; n <= last_number; ++n) {
        const ObfEntry& e = (*entries)[static_cast<std::size_t>(n - (name == "fforum-1-19.obf" ? 1 : 20))];
        CAPTURE(n);
        const auto expected = e.best_score();
        REQUIRE(expected);
        solver.clear();
        const auto r = solver.solve(e.position, options, stop);
        REQUIRE(r);
        CHECK(r->score == *expected);
        bool best = false;
        for (const auto& [m, s] : e.move_scores) best = best || (m == r->best_move && s == *expected);
        CHECK(best);
    }
}

}  // namespace

TEST_CASE("FFO #1-#19 (14-16 empties): scores and best moves from fforum-1-19.obf") {
    solve_file("fforum-1-19.obf", 1, 19, 1);
}

TEST_CASE("FFO #20-#25 (6-19 empties) with two threads: scores and best moves from fforum-20-39.obf") {
    solve_file("fforum-20-39.obf", 20, 25, 2);
}

TEST_CASE("FFO #1-#8 with selective passes forced on (root 14, probcut from 12 empties): same scores and moves") {
    solve_file("fforum-1-19.obf", 1, 8, 1, 14);
}
