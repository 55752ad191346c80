// reversi-solve on 8x8 OBF files (tools/solve/file_mode.cpp): the exit status, the WRONG marks and the
// totals, checked with scores from the plain solver.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>

#include "engine/board/notation.hpp"
#include "engine/board/variant_notation.hpp"
#include "tests/endgame/endgame_positions.hpp"
#include "tests/endgame/plain_solver.hpp"

using namespace reversi;
using endgame_test::plain_solve;
using endgame_test::positions_with_empties;

namespace {

// Runs reversi-solve with `args` on `file`; its exit status, and its stdout in `out`.
int run_solve_tool(const std::string& args, const std::filesystem::path& file, std::string& out) {
    const std::filesystem::path tool = std::filesystem::path(REVERSI_BINARY_DIR) / "tools" / "reversi-solve";
    const auto text = std::filesystem::temp_directory_path() / "reversi-solve-tool-out.txt";
    const std::string command =
        tool.string() + " --hash 4 " + args + " --file " + file.string() + " > " + text.string() + " 2>/dev/null";
    const int status = std::system(command.c_str());
    std::ifstream in(text);
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::filesystem::remove(text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every legal move of pos with its exact score, as an OBF line lists them ("; d3:+4; c4:-2;").
std::string move_scores_text(const Position& pos, Move only = kNoMove, int claimed = 0) {
    std::string text;
    for (const int sq : squares(pos.moves())) {
        if (only != kNoMove && sq != only) continue;
        const int score = only != kNoMove ? claimed : -plain_solve(pos.play(sq));
        // Appended piece by piece: GCC 12 reports a false -Wstringop-overflow on `" " + std::string`.
        text.append(" ").append(move_to_string(static_cast<Move>(sq))).append(score >= 0 ? ":+" : ":");
        text.append(std::to_string(score)).append(";");
    }
    return text;
}

}  // namespace

TEST_CASE("reversi-solve: an 8x8 file, right (status 0) and wrong (status 1) scores and best moves") {
    REQUIRE(std::filesystem::exists(std::filesystem::path(REVERSI_BINARY_DIR) / "tools" / "reversi-solve"));
    const auto positions = positions_with_empties(10, 3, 91);
    const auto dir = std::filesystem::temp_directory_path();
    const auto good = dir / "reversi-solve-good.obf";
    const auto bad_score = dir / "reversi-solve-bad-score.obf";
    const auto bad_move = dir / "reversi-solve-bad-move.obf";
    const Position& last = positions.back();
    REQUIRE(last.moves() != 0);
    // A move of `last` that is not a best one, listed alone with the best score: the best move is wrong.
    const int best = plain_solve(last);
    Move worse = kNoMove;
    for (const int sq : squares(last.moves())) {
        if (-plain_solve(last.play(sq)) < best) worse = static_cast<Move>(sq);
    }
    REQUIRE(worse != kNoMove);
    {
        std::ofstream g(good);
        std::ofstream s(bad_score);
        std::ofstream m(bad_move);
        g << "% 8x8 endgames, 10 empties\n";
        for (std::size_t i = 0; i + 1 < positions.size(); ++i) {
            const std::string board = to_compact_board(positions[i], Variant::Standard);
            const int score = plain_solve(positions[i]);
            g << board << "; " << score << ";\n";
            s << board << "; " << (i == 0 ? score + 2 : score) << ";\n";
            m << board << "; " << score << ";\n";
        }
        const std::string board = to_compact_board(last, Variant::Standard);
        g << board << ";" << move_scores_text(last) << "\n";
        s << board << ";" << move_scores_text(last) << "\n";
        m << board << ";" << move_scores_text(last, worse, best) << "\n";
    }
    std::string out;
    CHECK(run_solve_tool("", good, out) == 0);
    CHECK(out.find("total: 3 positions") != std::string::npos);
    CHECK(out.find(" 0 wrong") != std::string::npos);
    CHECK(out.find("edax-count: ") != std::string::npos);
    CHECK(out.find("WRONG") == std::string::npos);
    CHECK(run_solve_tool("--wld --threads 2", good, out) == 0);

    CHECK(run_solve_tool("", bad_score, out) == 1);
    CHECK(out.find(" 1 wrong") != std::string::npos);
    CHECK(out.find("<-- WRONG") != std::string::npos);
    // Positions 2-3 alone (numbered from 1 in a file of another name): right.
    CHECK(run_solve_tool("--first 2 --last 3", bad_score, out) == 0);
    CHECK(out.find("total: 2 positions") != std::string::npos);

    CHECK(run_solve_tool("--ordering simple", bad_move, out) == 1);
    CHECK(out.find(" 1 wrong") != std::string::npos);
    CHECK(run_solve_tool("--first 4", good, out) == 2);           // out of the file's range
    CHECK(run_solve_tool("--first 3 --last 2", good, out) == 2);  // no position (it solved none, status 0)
    CHECK(run_solve_tool("extra", good, out) == 2);               // a bare argument (it was ignored, status 0)
    CHECK(run_solve_tool("--ordering best", good, out) == 2);
    std::filesystem::remove(good);
    std::filesystem::remove(bad_score);
    std::filesystem::remove(bad_move);
}
