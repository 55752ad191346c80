#pragma once
// Self-play (reversi-train selfplay, see selfplay.cpp): the job its options describe, one game of it, and
// the WTHOR file of a finished job; shared by the local run and the distributed one (selfplay_queue.cpp:
// --queue and selfplay-worker).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/expected.hpp"
#include "engine/data/openings.hpp"
#include "engine/data/wthor.hpp"
#include "engine/endgame/solver.hpp"
#include "engine/search/searcher.hpp"
#include "protocol/cli/command_line.hpp"

namespace reversi::train {

struct SelfPlayJob {
    std::size_t games = 1000;
    int depth = 6;
    int selectivity = kEngineSelectivityPercent;
    int random_plies = 2;
    int exact_from = 20;
    // After the random plies, each move at a position with more than random_until empties is a uniformly
    // random one with probability random_rate percent (0: never; the positions that follow a move the
    // engine would not play, as its searches meet them).
    int random_rate = 0;
    int random_until = 20;
    std::uint64_t seed = 1;
    int threads = 1;
    std::string openings_path;
    std::vector<data::Opening> openings;
    std::string out;
    // The creation date in the file's header (--date YYYY-MM-DD); 0 = today (UTC). Only the header
    // depends on it: a file remade with its original --date is the same byte for byte.
    int year = 0, month = 0, day = 0;

    // The options that decide the games (not --threads, --out), as "--name value" tokens: what a
    // distributed job hands its workers, who rebuild the job from them.
    [[nodiscard]] std::vector<std::string> game_options() const;
    // Identifies the games (the same options and openings give the same file): the options, and the
    // number of openings and a hash of their moves.
    [[nodiscard]] std::string fingerprint() const;
};

// The job of the selfplay options (errors name the option); `need_out`: --out FILE.wtb is required. Its
// openings are read by load_selfplay_openings (an error names the file, the line, or a board opening).
[[nodiscard]] Expected<SelfPlayJob> selfplay_job(const cli::ParsedArgs& args, bool need_out);
[[nodiscard]] Expected<bool> load_selfplay_openings(SelfPlayJob& job);

// The engine's searcher and solver for one self-play thread.
struct SelfPlayEngine {
    explicit SelfPlayEngine(int selectivity);
    Searcher searcher{16};
    endgame::EndgameSolver solver{32};
};

// The opening of game i (0-based): one of the list, chosen by a hash of the seed and i.
[[nodiscard]] const data::Opening& selfplay_opening(const SelfPlayJob& job, std::size_t i);
// Game i of the job (0-based): deterministic, whatever the thread or machine that plays it.
[[nodiscard]] Expected<data::WthorGame> play_selfplay_game(const SelfPlayJob& job, std::size_t i,
                                                           SelfPlayEngine& engine);

// Writes the finished games (in game order) as the job's WTHOR file and prints the summary line.
[[nodiscard]] int write_selfplay_file(const SelfPlayJob& job, std::vector<data::WthorGame> games, double seconds);

// The coordinator of a distributed job (--queue), in selfplay_queue.cpp.
int run_selfplay_queue(const SelfPlayJob& job, const std::string& queue_url);

}  // namespace reversi::train
