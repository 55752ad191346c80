// EndgameSolver against the plain solver (exact, windows, WLD, threads) and its error handling.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include <algorithm>
#include "engine/board/moves.hpp"
#include "engine/board/notation.hpp"
#include "engine/endgame/move_ordering.hpp"
#include "engine/endgame/solver.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"
#include "tests/endgame/thread_comparison.hpp"
#include "tests/support/sanitized.hpp"

using namespace reversi;
using endgame_test::plain_solve;

TEST_CASE("EndgameSolver::solve equals the plain solver on 794 positions with 10-16 empties") {
    endgame::EndgameSolver solver(16);
    std::atomic<bool> stop{false};
    // 10..16 empties: fewer where the plain solver is slow, and a quarter under a sanitizer.
    using reversi::testing::sanitized_count;
    const int counts[] = {sanitized_count(500, 125), sanitized_count(200, 50), sanitized_count(60, 15),
                          sanitized_count(20, 5),    sanitized_count(8, 2),    sanitized_count(4, 1),
                          sanitized_count(2, 1)};
    for (int empties = 10; empties <= 16; ++empties) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, counts[empties - 10], 300 + empties)) {
            endgame::SolveOptions options;
            options.threads = 1 + (empties & 1);
            const auto r = solver.solve(pos, options, stop);
            REQUIRE(r);
            CAPTURE(to_board_string(pos));
            REQUIRE(r->completed);
            REQUIRE(r->bound == Bound::Exact);
            // The plain solver confirms the score, and that the best move (or pass) reaches it.
            const int truth = r->score;
            REQUIRE(endgame_test::plain_confirms(pos, truth));
            REQUIRE(!r->pv.empty());
            REQUIRE(endgame_test::plain_confirms(pos.play_move(r->best_move), -truth));
            // Win/loss/draw with the window (-1, 1).
            endgame::SolveOptions wld;
            wld.alpha = -1;
            wld.beta = 1;
            const auto w = solver.solve(pos, wld, stop);
            REQUIRE(w);
            REQUIRE((w->score > 0) == (truth > 0));
            REQUIRE((w->score < 0) == (truth < 0));
            if (empties % 3 == 0) solver.clear();
        }
    }
}

TEST_CASE("EndgameSolver: one and two threads agree on 10 positions with 17 empties") {
    endgame::EndgameSolver one(16);
    endgame::EndgameSolver two(16);
    std::atomic<bool> stop{false};
    for (const auto& pos : endgame_test::positions_with_empties(17, reversi::testing::sanitized_count(10, 4), 4242)) {
        endgame::SolveOptions o1;
        endgame::SolveOptions o2;
        o2.threads = 2;
        const auto a = one.solve(pos, o1, stop);
        const auto b = two.solve(pos, o2, stop);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->score == b->score);
        // The two best moves have the same value.
        const auto after_a = one.solve(pos.play_move(a->best_move), o1, stop);
        const auto after_b = one.solve(pos.play_move(b->best_move), o1, stop);
        REQUIRE(after_a);
        REQUIRE(after_b);
        CHECK(after_a->score == after_b->score);
        CHECK(-after_a->score == a->score);
    }
}

TEST_CASE("EndgameSolver: YBWC splits down the PV (from 12 empties, exact and selective) agree with one thread") {
    endgame::EndgameSolver one(16);
    endgame::EndgameSolver two(16);
    std::atomic<bool> stop{false};
    for (const auto& pos : endgame_test::positions_with_empties(18, reversi::testing::sanitized_count(8, 3), 5151)) {
        for (const bool selective : {false, true}) {
            endgame::SolveOptions base;
            base.selective = selective;
            base.selective_min_empties = 14;
            base.probcut_empties = 12;
            auto options = endgame_test::with_threads(base, 2);
            options.many.split_empties = 12;  // every PV node with 12+ empties is a split point
            const auto [a, b] = endgame_test::solve_both(one, two, pos, options);
            CAPTURE(to_board_string(pos));
            CAPTURE(selective);
            CHECK(b.completed);
            CHECK(a.score == b.score);
            CHECK(b.bound == Bound::Exact);
            // The two-thread best move reaches the score.
            const auto after_b = one.solve(pos.play_move(b.best_move), endgame::SolveOptions{}, stop);
            REQUIRE(after_b);
            CHECK(-after_b->score == a.score);
            // A narrow window gives a correct bound too (fail-soft through the splits).
            endgame::SolveOptions narrow = options.many;
            narrow.alpha = a.score + 1;
            narrow.beta = a.score + 3;
            two.clear();
            const auto c = two.solve(pos, narrow, stop);
            REQUIRE(c);
            CHECK(c->bound == Bound::Upper);
            CHECK(c->score >= a.score);
            CHECK(c->score <= narrow.alpha);
        }
    }
}

TEST_CASE("EndgameSolver: pattern-ordered and simple-ordered solves agree on 10 positions with 16 empties") {
    endgame::EndgameSolver with_pattern(16);
    endgame::EndgameSolver simple(16);
    REQUIRE(with_pattern.pattern() != nullptr);  // the embedded weights load
    simple.set_pattern(nullptr);
    std::atomic<bool> stop{false};
    std::uint64_t nodes_pattern = 0;
    std::uint64_t nodes_simple = 0;
    for (const auto& pos : endgame_test::positions_with_empties(16, 10, 777)) {
        const auto a = with_pattern.solve(pos, {}, stop);
        const auto b = simple.solve(pos, {}, stop);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->score == b->score);
        nodes_pattern += a->nodes;
        nodes_simple += b->nodes;
        with_pattern.clear();
        simple.clear();
    }
    MESSAGE("nodes: pattern ordering " << nodes_pattern << ", simple ordering " << nodes_simple);
}

TEST_CASE("pattern_search equals a plain negamax on the pattern evaluation") {
    const auto pattern = eval::PatternEvaluator::embedded_default();
    REQUIRE(pattern);
    // Plain negamax without pruning, in 1/32 disc.
    struct Plain {
        const eval::PatternEvaluator& e;
        int operator()(Bitboard P, Bitboard O, int depth) const {
            if (depth <= 0) {
                Position pos;
                pos.player = P;
                pos.opponent = O;
                return e.evaluate_units(pos);
            }
            const Bitboard moves = legal_moves(P, O);
            if (!moves) {
                if (!legal_moves(O, P)) {
                    const int p = popcount(P);
                    const int o = popcount(O);
                    const int empty = 64 - p - o;
                    const int diff = p - o;
                    return 32 * (diff > 0 ? diff + empty : (diff < 0 ? diff - empty : 0));
                }
                return -(*this)(O, P, depth);
            }
            int best = -(1 << 30);
            for (int sq : squares(moves)) {
                const Bitboard f = flips(P, O, sq);
                best = std::max(best, -(*this)(O ^ f, P ^ f ^ square_bit(sq), depth - 1));
            }
            return best;
        }
    };
    const Plain plain{*pattern};
    int checked = 0;
    for (int empties : {4, 12, 20, 30}) {
        for (const auto& pos : endgame_test::positions_with_empties(empties, 15, 99 + static_cast<unsigned>(empties))) {
            for (int depth = 0; depth <= 3; ++depth) {
                std::uint64_t nodes = 0;
                const int got =
                    endgame::pattern_search(*pattern, pos.player, pos.opponent, depth, -(1 << 24), 1 << 24, nodes);
                const int expected = plain(pos.player, pos.opponent, depth);
                REQUIRE(got == expected);
                // Both ways of reading the leaves' indices, whichever this build's pattern_search uses.
                std::uint64_t indexed_nodes = 0;
                std::uint64_t extracted_nodes = 0;
                REQUIRE(endgame::pattern_search_from<true>(*pattern, pos.player, pos.opponent,
                                                           eval::instance_indices(pos), depth, -(1 << 24), 1 << 24,
                                                           indexed_nodes) == expected);
                REQUIRE(endgame::pattern_search_from<false>(*pattern, pos.player, pos.opponent, {}, depth, -(1 << 24),
                                                            1 << 24, extracted_nodes) == expected);
                REQUIRE(indexed_nodes == nodes);
                REQUIRE(extracted_nodes == nodes);
                ++checked;
            }
        }
    }
    CHECK(checked == 240);
}

// With the node's alpha given, each move's ordering search may stop once it proves the move
// kOrderAlphaDelta discs below alpha: every move the exact scores keep above that line keeps its exact
// score, and every other move scores at least its exact score but no more than the line allows.
TEST_CASE("score_listed_moves with alpha: exact above alpha - kOrderAlphaDelta, a fail-soft bound below") {
    const auto pattern = eval::PatternEvaluator::embedded_default();
    REQUIRE(pattern);
    int same = 0;
    int bounded = 0;
    for (int empties : {14, 18, 20}) {
        for (const auto& pos :
             endgame_test::positions_with_empties(empties, 30, 211 + static_cast<unsigned>(empties))) {
            const Bitboard moves = legal_moves(pos.player, pos.opponent);
            if (!moves) continue;
            for (int alpha : {-20, -2, 0, 6, 30}) {
                endgame::EndgameMoveList exact;
                endgame::EndgameMoveList cut;
                std::uint64_t exact_nodes = 0;
                std::uint64_t cut_nodes = 0;
                endgame::list_moves(exact, pos.player, pos.opponent, moves);
                endgame::list_moves(cut, pos.player, pos.opponent, moves);
                endgame::score_listed_moves(exact, 0, pos.player, pos.opponent, empties, kNoMove, kNoMove, exact_nodes,
                                            &*pattern);
                endgame::score_listed_moves(cut, 0, pos.player, pos.opponent, empties, kNoMove, kNoMove, cut_nodes,
                                            &*pattern, alpha);
                CHECK(cut_nodes <= exact_nodes);
                const int line = alpha - endgame::kOrderAlphaDelta;
                for (int i = 0; i < exact.size; ++i) {
                    const auto& e = exact.moves[static_cast<std::size_t>(i)];
                    const auto& c = cut.moves[static_cast<std::size_t>(i)];
                    REQUIRE(e.square == c.square);
                    // The pattern part of the score is -32 x (the child's value in 1/32 disc).
                    const Bitboard np = pos.opponent ^ e.flipped;
                    const Bitboard no = pos.player ^ e.flipped ^ square_bit(e.square);
                    std::uint64_t n = 0;
                    const int depth = empties >= 18 ? 2 : 1;
                    const int child = endgame::pattern_search(*pattern, np, no, depth, -(1 << 24), 1 << 24, n);
                    if (-child > line * eval::kWeightScale) {
                        REQUIRE(c.score == e.score);
                        ++same;
                    } else {
                        REQUIRE(c.score >= e.score);
                        REQUIRE(c.score <= e.score - 32 * (-child) + 32 * line * eval::kWeightScale);
                        bounded += c.score != e.score;
                    }
                }
            }
        }
    }
    MESSAGE(same << " moves scored exactly, " << bounded << " with a bound");
    CHECK(same > 1000);
    CHECK(bounded > 100);
}

TEST_CASE("EndgameSolver: errors, finished games, passes and stop") {
    endgame::EndgameSolver solver(1);
    std::atomic<bool> stop{false};
    // Variant boards are rejected with a message.
    const auto six = solver.solve(start_position(Variant::Board6x6), {}, stop);
    REQUIRE(!six);
    CHECK(six.error().message.find("standard 8x8") != std::string::npos);
    endgame::SolveOptions bad;
    bad.alpha = 3;
    bad.beta = 3;
    CHECK(!solver.solve(start_position(), bad, stop));
    bad.alpha = -70;
    bad.beta = 0;
    CHECK(!solver.solve(start_position(), bad, stop));
    endgame::SolveOptions zero_threads;
    zero_threads.threads = 0;
    CHECK(!solver.solve(start_position(), zero_threads, stop));

    // A finished game: the final score, no move.
    // append, not +: GCC 12's -Warray-bounds false positive on the moved string (TSan build).
    auto over = parse_board(std::string(60, 'X').append("---- O"));
    REQUIRE(over);
    const auto done = solver.solve(*over, {}, stop);
    REQUIRE(done);
    CHECK(done->best_move == kNoMove);
    CHECK(done->score == over->final_score());
    CHECK(done->score == -64);
    CHECK(done->bound == Bound::Exact);  // -64 with the window (-64, 64): nothing lies below it

    // The side to move must pass: best move is pass and the score is minus the opponent's.
    for (const auto& pos : endgame_test::positions_with_empties(12, 400, 99)) {
        if (!pos.must_pass()) continue;
        const auto r = solver.solve(pos, {}, stop);
        REQUIRE(r);
        CHECK(r->best_move == kPass);
        CHECK(r->score == plain_solve(pos));
        CHECK(r->pv.front() == kPass);
    }

    // A set stop flag ends the solve at once, marked incomplete.
    std::atomic<bool> stopped{true};
    const auto start = endgame_test::positions_with_empties(30, 1, 1).front();
    const auto s = solver.solve(start, {}, stopped);
    REQUIRE(s);
    CHECK(!s->completed);
    CHECK((start.moves() & square_bit(s->best_move)) != 0);
}

TEST_CASE("EndgameSolver: a wipeout is an exact score at any window, not a bound") {
    // Two positions from self-play where the side to move wipes the board (64) or is wiped out (-64):
    // the full window fails high at 64 (or low at -64), and nothing lies beyond, so the score is exact;
    // so is any fail-soft score that reaches the end of the scale with a narrower window.
    endgame::EndgameSolver solver(1);
    std::atomic<bool> stop{false};
    struct Case {
        const char* board;
        int score;
    };
    for (const Case c : {Case{"--OOOOOOO-OOOOOOO-OOOOOOOXOOOOOOOXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO O", 64},
                         Case{"OOOO--O-OOOOXOO-OOOOO-OOOOOOOXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO- X", -64}}) {
        CAPTURE(c.board);
        const auto pos = parse_board(c.board);
        REQUIRE(pos);
        REQUIRE(plain_solve(*pos) == c.score);
        for (const auto& [alpha, beta] :
             {std::pair{-64, 64}, std::pair{0, 10}, std::pair{-10, 0}, std::pair{-64, -63}, std::pair{63, 64}}) {
            CAPTURE(alpha);
            CAPTURE(beta);
            endgame::SolveOptions options;
            options.alpha = alpha;
            options.beta = beta;
            const auto r = solver.solve(*pos, options, stop);
            REQUIRE(r);
            REQUIRE(r->completed);
            if (r->bound == Bound::Exact || (alpha == -64 && beta == 64)) {
                CHECK(r->score == c.score);
                CHECK(r->bound == Bound::Exact);
            } else {
                // A fail-soft bound short of the end of the scale, on the right side of the score.
                CHECK(r->bound == (c.score > 0 ? Bound::Lower : Bound::Upper));
                CHECK(std::abs(r->score) < 64);
                CHECK((c.score > 0 ? r->score >= beta : r->score <= alpha));
            }
        }
    }
    static_assert(bound_on_scale(64, -64, 64, 64) == Bound::Exact);
    static_assert(bound_on_scale(-64, -64, 64, 64) == Bound::Exact);
    static_assert(bound_on_scale(12, -64, 12, 64) == Bound::Lower);
    static_assert(bound_on_scale(-64, -63, 64, 64) == Bound::Exact);
    static_assert(bound_on_scale(63, 63, 64, 64) == Bound::Upper);
}

TEST_CASE("EndgameSolver: an aspiration window that fails at the end of the scale is not searched again") {
    // 16 empties, a wipeout (64) that the aspiration's guess (a 4-ply evaluation search: 53) does not see:
    // the window around the guess fails high, the wider one reaches 64, and nothing lies beyond it. Before,
    // a third pass searched (63, 64) to learn what 64 already said.
    const auto pos = parse_board("XXXXXOO-XXXXOO-O-XXOOOO-OXXOOOO-XOOOOO---OOOOO--O-XOOO---OOOOO-- X");
    REQUIRE(pos);
    REQUIRE(pos->empty_count() == 16);
    endgame::EndgameSolver solver(1);
    std::atomic<bool> stop{false};
    endgame::SolveOptions options;
    options.selective = false;  // the exact passes alone
    const auto r = solver.solve(*pos, options, stop);
    REQUIRE(r);
    CHECK(r->score == 64);
    CHECK(r->bound == Bound::Exact);
    CHECK(r->passes == 2);
    options.aspiration = false;
    const auto full = solver.solve(*pos, options, stop);
    REQUIRE(full);
    CHECK(full->score == 64);
    CHECK(full->passes == 1);
}

TEST_CASE("EndgameSolver: a hand-set board with 35 legal moves is listed whole and searched") {
    // More legal moves than a game reaches (33 at most): the move list holds one entry per square.
    auto pos = parse_board("---------OOOOXO---XX-XO--OXO--O--XX-O-X--OOX-OX---O--XO-----OX-- X");
    REQUIRE(pos);
    const Bitboard P = pos->player;
    const Bitboard O = pos->opponent;
    const Bitboard moves = legal_moves(P, O);
    REQUIRE(popcount(moves) == 35);
    endgame::EndgameMoveList list;
    endgame::list_moves(list, P, O, moves);
    REQUIRE(list.size == 35);
    Bitboard listed = 0;
    for (int i = 0; i < list.size; ++i) listed |= square_bit(list.moves[static_cast<std::size_t>(i)].square);
    CHECK(listed == moves);
    // The root and the nodes below it (a node budget keeps the 36-empty solve short), one and two threads.
    for (const int threads : {1, 2}) {
        endgame::EndgameSolver solver(16);
        const std::atomic<bool> stop{false};
        endgame::SolveOptions options;
        options.threads = threads;
        const auto r = solver.solve(*pos, options, endgame::SolveLimits{&stop, std::nullopt, 300000});
        REQUIRE(r);
        CHECK(!r->completed);
        CHECK((square_bit(r->best_move) & moves) != 0);
    }
}
