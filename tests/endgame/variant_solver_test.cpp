// VariantSolver (the exact solver of every board) against the plain solver and the generic search, its
// stability, errors and limits, `go solve` on the variants, and reversi-solve --variant.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <sys/wait.h>

#include "engine/board/variant_notation.hpp"
#include "engine/endgame/variant_solver.hpp"
#include "engine/search/exact_solve.hpp"
#include "engine/search/searcher.hpp"
#include "tests/endgame/plain_solver.hpp"
#include "tests/search/search_helpers.hpp"
#include "tests/support/random_positions.hpp"

using namespace reversi;
using endgame_test::plain_confirms;
using endgame_test::plain_solve;

namespace {

constexpr Variant kSmallVariants[] = {Variant::Board6x6, Variant::Board6x6Parallel, Variant::Board4x4, Variant::Diamond,
                                      Variant::DiamondParallel};

endgame::SolveLimits no_limits(const std::atomic<bool>& stop) { return {&stop, std::nullopt, std::nullopt}; }

// Positions of `variant` that are not over, with `min_empties` to `max_empties` empties, at most `count`.
std::vector<Position> endgames(Variant variant, int min_empties, int max_empties, int count, std::uint64_t seed) {
    std::vector<Position> out;
    for (const Position& p : testing::random_positions(variant, 40 * count, seed)) {
        const int e = p.empty_count();
        if (e < min_empties || e > max_empties || p.is_over()) continue;
        out.push_back(p);
        if (static_cast<int>(out.size()) == count) break;
    }
    return out;
}

// The exact value of `pos` by the generic NegaScout (engine/search/, its own table) with the full window.
int generic_solve(const Position& pos) {
    const HeuristicEvaluator eval;
    TranspositionTable tt(16);
    testing::OthelloCtx ctx(testing::HeuristicCall{&eval}, OthelloOrder(MoveOrdering::Normal, {}), &tt);
    const auto r = run_algorithm(Algorithm::NegaScout, ctx, OthelloState{pos}, 64, -ctx.kInfinity, ctx.kInfinity, 0);
    REQUIRE(r.complete);
    return r.value;
}

}  // namespace

TEST_CASE("VariantSolver equals the plain solver on every 4x4 position met in random games") {
    endgame::EndgameTT tt(4);
    endgame::VariantSolver solver(tt);
    const std::atomic<bool> stop{false};
    int checked = 0;
    for (const Position& pos : testing::random_positions(Variant::Board4x4, 1500, 41)) {
        const auto r = solver.solve(pos, {}, no_limits(stop));
        REQUIRE(r);
        CAPTURE(to_board_string(pos));
        REQUIRE(r->completed);
        REQUIRE(r->bound == Bound::Exact);
        REQUIRE(r->score == plain_solve(pos));
        if (!pos.is_over()) {
            REQUIRE(plain_solve(pos.play_move(r->best_move)) == -r->score);
            // The principal variation plays out to a finished game of that score.
            Position end = pos;
            for (const Move m : r->pv) end = end.play_move(m);
            REQUIRE(end.is_over());
            const int final_for_mover = end.side == pos.side ? end.final_score() : -end.final_score();
            REQUIRE(final_for_mover == r->score);
        }
        ++checked;
    }
    CHECK(checked == 1500);
}

TEST_CASE("VariantSolver equals the plain solver on 6x6, 6x6-parallel and the diamonds, exact and in windows") {
    endgame::EndgameTT tt(16);
    endgame::VariantSolver solver(tt);
    const std::atomic<bool> stop{false};
    std::mt19937 rng(2026);
    int checked = 0;
    for (const Variant v : kSmallVariants) {
        if (v == Variant::Board4x4) continue;
        CAPTURE(variant_info(v).name);
        // Many small endgames, a few at 13-14 empties (the plain solver is slow there).
        auto positions = endgames(v, 2, 10, 120, 17 + static_cast<int>(v));
        for (const Position& p : endgames(v, 13, 14, 3, 91 + static_cast<int>(v))) positions.push_back(p);
        for (const Position& pos : positions) {
            CAPTURE(to_board_string(pos));
            const auto r = solver.solve(pos, {}, no_limits(stop));
            REQUIRE(r);
            REQUIRE(r->bound == Bound::Exact);
            REQUIRE(plain_confirms(pos, r->score));
            REQUIRE(plain_confirms(pos.play_move(r->best_move), -r->score));
            // A random window: a fail-soft bound on the right side, or the exact score inside.
            endgame::SolveOptions w;
            w.alpha = std::uniform_int_distribution<int>(-20, 18)(rng);
            w.beta = w.alpha + std::uniform_int_distribution<int>(1, 6)(rng);
            const auto b = solver.solve(pos, w, no_limits(stop));
            REQUIRE(b);
            if (b->score <= w.alpha) {
                CHECK(r->score <= b->score);
                CHECK(b->bound == Bound::Upper);
            } else if (b->score >= w.beta) {
                CHECK(r->score >= b->score);
                CHECK(b->bound == Bound::Lower);
            } else {
                CHECK(r->score == b->score);
            }
            ++checked;
        }
    }
    CHECK(checked == 4 * 123);
}

TEST_CASE("VariantSolver with two and three threads (YBWC from 12 empties) equals one thread, exact and in windows") {
    endgame::EndgameTT one_tt(16);
    endgame::VariantSolver one(one_tt);
    endgame::EndgameTT many_tt(16);
    endgame::VariantSolver many(many_tt);
    const std::atomic<bool> stop{false};
    std::mt19937 rng(77);
    int checked = 0;
    for (const Variant v : {Variant::Board6x6, Variant::Diamond}) {
        for (const Position& pos : endgames(v, 14, 17, 6, 303 + static_cast<int>(v))) {
            CAPTURE(to_board_string(pos));
            const auto r = one.solve(pos, {}, no_limits(stop));
            REQUIRE(r);
            for (const int threads : {2, 3}) {
                CAPTURE(threads);
                endgame::SolveOptions o;
                o.threads = threads;
                o.split_empties = 12;
                const auto t = many.solve(pos, o, no_limits(stop));
                REQUIRE(t);
                CHECK(t->completed);
                CHECK(t->bound == Bound::Exact);
                CHECK(t->score == r->score);
                CHECK(plain_confirms(pos.play_move(t->best_move), -r->score));
                o.alpha = std::uniform_int_distribution<int>(-20, 18)(rng);
                o.beta = o.alpha + std::uniform_int_distribution<int>(1, 6)(rng);
                const auto b = many.solve(pos, o, no_limits(stop));
                REQUIRE(b);
                if (b->score <= o.alpha) {
                    CHECK(r->score <= b->score);
                } else if (b->score >= o.beta) {
                    CHECK(r->score >= b->score);
                } else {
                    CHECK(r->score == b->score);
                }
                ++checked;
            }
        }
    }
    CHECK(checked == 2 * 6 * 2);
    // Limits stop every thread: a node budget, and the stop flag.
    endgame::SolveOptions two;
    two.threads = 2;
    two.split_empties = 12;
    const Position start = start_position(Variant::Board6x6);
    const auto limited = many.solve(start, two, endgame::SolveLimits{&stop, std::nullopt, 200000});
    REQUIRE(limited);
    CHECK_FALSE(limited->completed);
    const std::atomic<bool> stopped{true};
    const auto halted = many.solve(start, two, no_limits(stopped));
    REQUIRE(halted);
    CHECK_FALSE(halted->completed);
    two.threads = 257;
    CHECK_FALSE(many.solve(start, two, no_limits(stop)));
}

TEST_CASE("VariantSolver on the 8x8 board equals the plain solver (the variant solver takes any mask)") {
    endgame::EndgameTT tt(16);
    endgame::VariantSolver solver(tt);
    const std::atomic<bool> stop{false};
    for (const Position& pos : endgames(Variant::Standard, 6, 11, 40, 5)) {
        const auto r = solver.solve(pos, {}, no_limits(stop));
        REQUIRE(r);
        CAPTURE(to_board_string(pos));
        CHECK(plain_confirms(pos, r->score));
    }
}

TEST_CASE("VariantSolver: a 6x6 position with 18 empties equals the generic search with the full window") {
    // Reached by a seeded random game; the generic NegaScout solves it with its own table and ordering.
    const auto positions = endgames(Variant::Board6x6, 18, 18, 1, 606);
    REQUIRE(positions.size() == 1);
    const Position& pos = positions.front();
    endgame::EndgameTT tt(16);
    endgame::VariantSolver solver(tt);
    const std::atomic<bool> stop{false};
    const auto r = solver.solve(pos, {}, no_limits(stop));
    REQUIRE(r);
    CAPTURE(to_board_string(pos));
    MESSAGE("score " << r->score << " nodes " << r->nodes);
    CHECK(r->bound == Bound::Exact);
    CHECK(r->score == generic_solve(pos));
    CHECK(r->pv.size() >= 10);
}

TEST_CASE("VariantSolver: discs it calls stable never flip in random playouts, on every board") {
    std::mt19937 rng(7);
    int stable_seen = 0;
    for (const auto& info : all_variants()) {
        for (const Position& start : testing::random_positions(info.id, 300, 100 + static_cast<int>(info.id))) {
            const Bitboard filled = start.player | start.opponent;
            const Bitboard mine = endgame::variant_stable_discs(start.player, filled, start.playable);
            const Bitboard theirs = endgame::variant_stable_discs(start.opponent, filled, start.playable);
            REQUIRE((mine & ~start.player) == 0);
            REQUIRE((theirs & ~start.opponent) == 0);
            stable_seen += popcount(mine | theirs);
            for (int game = 0; game < 3; ++game) {
                Position p = start;
                while (!p.is_over()) {
                    const Bitboard moves = p.moves();
                    if (!moves) {
                        p = p.pass();
                    } else {
                        const int n = std::uniform_int_distribution<int>(0, popcount(moves) - 1)(rng);
                        auto it = squares(moves).begin();
                        for (int i = 0; i < n; ++i) ++it;
                        p = p.play(*it);
                    }
                    const Bitboard black_stable = start.side == Color::Black ? mine : theirs;
                    const Bitboard white_stable = start.side == Color::Black ? theirs : mine;
                    REQUIRE((p.black() & black_stable) == black_stable);
                    REQUIRE((p.white() & white_stable) == white_stable);
                }
            }
        }
    }
    CHECK(stable_seen > 1000);
}

TEST_CASE("VariantSolver: bad input is an error value, and a node budget stops it") {
    endgame::EndgameTT tt(1);
    endgame::VariantSolver solver(tt);
    const std::atomic<bool> stop{false};
    Position pos = start_position(Variant::Board6x6);
    endgame::SolveOptions reversed;
    reversed.alpha = 3;
    reversed.beta = 3;
    CHECK_FALSE(solver.solve(pos, reversed, no_limits(stop)));
    endgame::SolveOptions no_threads;
    no_threads.threads = 0;
    CHECK_FALSE(solver.solve(pos, no_threads, no_limits(stop)));
    Position off = pos;
    off.player |= square_bit(0);  // a1 is off the 6x6 board
    CHECK_FALSE(solver.solve(off, {}, no_limits(stop)));
    Position overlap = pos;
    overlap.player |= overlap.opponent;
    CHECK_FALSE(solver.solve(overlap, {}, no_limits(stop)));
    Position empty_board = pos;
    empty_board.playable = 0;
    empty_board.player = empty_board.opponent = 0;
    CHECK_FALSE(solver.solve(empty_board, {}, no_limits(stop)));

    const auto limited = solver.solve(pos, {}, endgame::SolveLimits{&stop, std::nullopt, 20000});
    REQUIRE(limited);
    CHECK_FALSE(limited->completed);
    CHECK(limited->best_move < 64);
    const std::atomic<bool> stopped{true};
    const auto halted = solver.solve(pos, {}, no_limits(stopped));
    REQUIRE(halted);
    CHECK_FALSE(halted->completed);
}

TEST_CASE("go solve and wld on the variants go through the variant solver and equal the plain solver") {
    SearchOptions options;
    for (const Variant v : kSmallVariants) CHECK(endgame_solver_applies(start_position(v), options, true));
    const std::atomic<bool> stop{false};
    Searcher searcher(4);
    int solved = 0;
    for (const Variant v : kSmallVariants) {
        for (const Position& pos : endgames(v, 6, 12, 6, 3 + static_cast<int>(v))) {
            CAPTURE(to_board_string(pos));
            SearchLimits limits;
            limits.solve = true;
            auto r = searcher.search(pos, limits, {}, stop);
            CHECK(r.exact);
            CHECK(plain_confirms(pos, r.score));
            limits.solve = false;
            limits.wld = true;
            r = searcher.search(pos, limits, {}, stop);
            const int truth = plain_solve(pos);
            CHECK(r.score == (truth > 0) - (truth < 0));
            ++solved;
        }
    }
    CHECK(solved == 30);
}

TEST_CASE("variant notation: compact boards and local moves round-trip, the diamond listing") {
    for (const auto& info : all_variants()) {
        for (const Position& pos : testing::random_positions(info.id, 50, 3)) {
            const std::string text = to_compact_board(pos, info.id);
            CHECK(text.size() == static_cast<std::size_t>(popcount(info.playable)) + 2);
            const auto back = parse_compact_board(text, info.id);
            REQUIRE(back);
            CHECK(*back == pos);
        }
        for (const int sq : squares(info.playable)) {
            const auto m = parse_local_move(local_move_to_string(static_cast<Move>(sq), info.id), info.id);
            REQUIRE(m);
            CHECK(*m == sq);
        }
    }
    // The diamond's squares in row-major order, in its own coordinates (its rectangle is b2-g7).
    std::string listing;
    for (const int sq : squares(variant_info(Variant::Diamond).playable)) {
        listing += local_move_to_string(static_cast<Move>(sq), Variant::Diamond) + " ";
    }
    CHECK(listing == "c1 d1 b2 c2 d2 e2 a3 b3 c3 d3 e3 f3 a4 b4 c4 d4 e4 f4 b5 c5 d5 e5 c6 d6 ");
    CHECK(to_compact_board(start_position(Variant::Board6x6), Variant::Board6x6) ==
          "--------------OX----XO-------------- X");
    CHECK_FALSE(parse_local_move("a1", Variant::Diamond));  // b2 of 8x8 is off the diamond
    CHECK_FALSE(parse_compact_board("----", Variant::Board4x4));
    CHECK_FALSE(parse_variant_obf_line("--------------OX----XO-------------- X; g1:+4", Variant::Board6x6));
}

TEST_CASE("variant OBF lines: a pass where only off-board squares would be legal, errors in the variant's terms") {
    // X must pass on 6x6 (its only 8x8 move, a1, is off the board): before, 'pass:-36' was refused.
    const auto pass = parse_variant_obf_line("O------X---------------------------- X; pass:-36", Variant::Board6x6);
    REQUIRE_MESSAGE(pass, pass.error().message);
    REQUIRE(pass->move_scores.size() == 1);
    CHECK(pass->move_scores[0] == std::pair<Move, int>{kPass, -36});
    // The field as written, not its 8x8 square (before: 'b2:3', 'd3:abc').
    const std::string start = "--------------OX----XO-------------- X; ";
    const auto illegal = parse_variant_obf_line(start + "a1:3", Variant::Board6x6);
    REQUIRE_FALSE(illegal);
    CHECK(illegal.error().message.find("'a1:3' scores a move that is not legal") != std::string::npos);
    const auto bad = parse_variant_obf_line(start + "c2:abc", Variant::Board6x6);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("bad score in 'c2:abc'") != std::string::npos);
    // Scores the board cannot have, and one move with two scores.
    const auto beyond = parse_variant_obf_line(start + "50", Variant::Board6x6);
    REQUIRE_FALSE(beyond);
    CHECK(beyond.error().message.find("beyond -36..36") != std::string::npos);
    CHECK_FALSE(parse_variant_obf_line("--------------OX----XO-------------- X; 20", Variant::Board4x4));
    const auto twice = parse_variant_obf_line(start + "c2:-4; c2:-5", Variant::Board6x6);
    REQUIRE_FALSE(twice);
    CHECK(twice.error().message.find("already scored -4") != std::string::npos);
    CHECK(parse_variant_obf_line(start + "c2:-4; c2:-4", Variant::Board6x6));  // the same score twice: kept
    CHECK(parse_variant_obf_line(start + " ; c2:-4", Variant::Board6x6));      // an empty field: skipped
}

TEST_CASE("reversi-solve --variant: a small 6x6 file, right (status 0) and wrong (status 1) expected scores") {
    const std::filesystem::path tool = std::filesystem::path(REVERSI_BINARY_DIR) / "tools" / "reversi-solve";
    REQUIRE(std::filesystem::exists(tool));
    const auto positions = endgames(Variant::Board6x6, 8, 10, 3, 77);
    REQUIRE(positions.size() == 3);
    const auto dir = std::filesystem::temp_directory_path();
    const auto good = dir / "reversi-variant-good.obf";
    const auto bad = dir / "reversi-variant-bad.obf";
    {
        std::ofstream g(good);
        std::ofstream b(bad);
        g << "% 6x6 endgames\n";
        for (const Position& pos : positions) {
            const int score = plain_solve(pos);
            g << to_compact_board(pos, Variant::Board6x6) << "; " << score << ";\n";
            b << to_compact_board(pos, Variant::Board6x6) << "; " << score + 2 << ";\n";
        }
    }
    const std::string base = tool.string() + " --hash 4 --variant 6x6 --file ";
    CHECK(std::system((base + good.string() + " > /dev/null 2>&1").c_str()) == 0);
    CHECK(std::system((base + bad.string() + " > /dev/null 2>&1").c_str()) != 0);
    CHECK(WEXITSTATUS(std::system((base + bad.string() + " > /dev/null 2>&1").c_str())) == 1);
    // Without --file: the 4x4 start (white wins 11-3 with two empties: -10 for black).
    const auto out = dir / "reversi-variant-start.txt";
    REQUIRE(std::system((tool.string() + " --hash 4 --variant 4x4 > " + out.string() + " 2>&1").c_str()) == 0);
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text.find("score -10") != std::string::npos);
    CHECK(text.find("pv ends black 3 white 11 empty 2") != std::string::npos);
    CHECK(std::system((tool.string() + " --variant hexagon > /dev/null 2>&1").c_str()) != 0);
    // An option of the 8x8 solver is refused, not ignored (before, --first 3 solved every position).
    CHECK(WEXITSTATUS(std::system((base + good.string() + " --first 3 > /dev/null 2>&1").c_str())) == 2);
    std::filesystem::remove(good);
    std::filesystem::remove(bad);
    std::filesystem::remove(out);
}
