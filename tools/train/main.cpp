// reversi-train: builds training positions from WTHOR games, fits the pattern evaluation's weights,
// measures evaluation accuracy and speed, and embeds a weights file into the engine's sources.
#include <cstdio>
#include <string>

#include "protocol/cli/logging.hpp"
#include "tools/train/commands.hpp"

using namespace reversi;

namespace {

int run_command(const std::string& command, cli::ParsedArgs& args) {
    if (command == "train") return train::run_train(args);
    if (command == "measure") return train::run_measure(args);
    if (command == "bench") return train::run_bench(args);
    if (command == "embed") return train::run_embed(args);
    if (command == "probcut") return train::run_probcut(args);
    if (command == "selfplay") return train::run_selfplay(args);
    if (command == "selfplay-worker") return train::run_selfplay_worker(args);
    std::fprintf(stderr,
                 "reversi-train: unknown command '%s' (train, measure, bench, embed, probcut, selfplay or "
                 "selfplay-worker)\n",
                 command.c_str());
    return 2;
}

cli::ProgramSpec program_spec() {
    return cli::ProgramSpec{
        "reversi-train",
        "reversi-train COMMAND [options] [files]",
        "Training and measurement of the pattern evaluation. Commands:\n"
        "  train   [--wthor DIR] --out FILE   build samples from the WTHOR games and fit every phase;\n"
        "          prints train/test error per phase; with --resume, continues an interrupted run\n"
        "          (cached samples in --cache DIR, phases already in --out are kept); --search-depth D gives\n"
        "          the midgame positions the engine's depth-D search value as target (bootstrapping)\n"
        "  measure [--weights FILE] [--depths 2,4,8] [--by-loss] OBF...  mean absolute error (discs) of the\n"
        "          static evaluations against the exact score of every listed move (position after the move);\n"
        "          with --depths, also fixed-depth searches from each position; with --by-loss, the pattern\n"
        "          evaluation's error and bias by how much worse than its best move it rates each move\n"
        "  measure --movetime MS | --depth N [--selectivity P] [--eval pattern|heuristic] [--ordering O] [--limit N] "
        "OBF...\n"
        "          the engine's own search (iterative deepening, 1 thread) on each position: mean disc loss\n"
        "          of the chosen move, % best move, mean depth reached, time (instead of the table above)\n"
        "  bench   [--weights FILE]           evaluations per second: fast features vs the reference\n"
        "  embed   --in FILE --out FILE.cpp   writes the C++ source that embeds a weights file\n"
        "  probcut [--weights IN] [--schedule 10:2100,12:1400,...] [--threads N] [--keep-model] [--out OUT]\n"
        "          Multi-ProbCut calibration: WTHOR positions searched at every depth up to the schedule's; per\n"
        "          phase and node depth, deep = a * shallow + b and the residual sigma; --out writes IN + the\n"
        "          model (with --keep-model, IN's calibrated cells stay and the run adds only those IN lacks)\n"
        "  selfplay [--openings XOT] [--games N] [--depth D] [--random-plies K] [--exact-from E] [--threads N]\n"
        "          [--random-rate P [--random-until U]] [--date YYYY-MM-DD] --out FILE.wtb  games of the engine\n"
        "          against itself from XOT openings (K random plies after the opening, then depth-D searches,\n"
        "          each move above U empties random with probability P %, perfect play from E empties), as a\n"
        "          WTHOR file for train (its header dated --date, default today: a file remade with its date is\n"
        "          the same byte for byte);\n"
        "          with --queue redis://HOST:PORT/NAME the games are played by selfplay-workers (the same file)\n"
        "  selfplay-worker --queue redis://HOST:PORT/NAME [--threads N]  plays the batches of a distributed\n"
        "          selfplay job (docs/scale.md)\n"
        "Results go to stdout, progress and logs to stderr.",
        {{"wthor", true, "folder of WTH_*.wtb files (default ../shared/data/wthor, from the project root)"},
         {"out", true, "train: weights file to write; embed: .cpp to write; probcut: weights + model to write"},
         {"in", true, "embed: weights file to read"},
         {"cache", true, "train: folder for per-file sample caches (resumable build)"},
         {"resume", false, "train: keep the phases already fitted in --out"},
         {"selfplay", true, "train: also these WTHOR files (comma-separated), e.g. written by selfplay"},
         {"selfplay-perfect", false,
          "train: the --selfplay files play perfectly from their theory depth, as selfplay writes them: their "
          "exact targets there are the theoretical score, without solves (every 64th game is still solved; a "
          "difference is an error)"},
         {"openings", true,
          "selfplay: XOT opening transcripts (default ../shared/data/openings/xot/openingslarge.txt)"},
         {"games", true, "selfplay: number of games (default 1000)"},
         {"random-plies", true, "selfplay: uniformly random moves after the opening (default 2)"},
         {"random-rate", true, "selfplay: percent of the later moves played at random (default 0)"},
         {"random-until", true, "selfplay: --random-rate's moves only above this many empties (default --exact-from)"},
         {"exact-from", true, "selfplay: perfect play (endgame solver) from this many empties (default 20)"},
         {"date", true, "selfplay: creation date in the file's header, YYYY-MM-DD (default today, UTC)"},
         {"exact-empties", true,
          "train: exact targets from the endgame solver for positions with at most N empties (default 12, max 24)"},
         {"targets", true,
          "train: blend (default: theoretical/exact blend below the theory depth) or final (final result)"},
         {"lambda", true, "train: L2 regularisation (default 5)"},
         {"iterations", true, "train: conjugate-gradient iterations per phase (default 60)"},
         {"overlap", true, "train: also fit each phase on positions up to N empties outside it (default 0)"},
         {"search-depth", true,
          "train: targets of the positions in --search-empties from the engine's search at this depth (0 = off)"},
         {"search-empties", true, "train: LO-HI empties of the positions given searched targets (default 30-60)"},
         {"search-weight", true,
          "train: target = W * search + (1 - W) * game target (default 1); W:W2 gives W at the low end of "
          "--search-empties and W2 at its high end, linear between"},
         {"search-selectivity", true, "train: Multi-ProbCut confidence of those searches (default the engine's)"},
         {"search-weights", true, "train: weights file of those searches (default: the embedded weights)"},
         {"search-checkpoint", true, "train: file of the search scores found so far (resumable; appended)"},
         {"refit-phases", true,
          "train: fit phases LO-HI again in the existing --out, keeping its other phases and Multi-ProbCut section"},
         {"warm-start", false,
          "train: with --refit-phases, each phase starts from its table in --out and the L2 term pulls toward it "
          "(--lambda): the residuals of the new positions refine it"},
         {"fit-empties", true, "train: fit and test only the positions with LO-HI empties (default 0-60)"},
         {"min-count", true, "train: weights seen in fewer training positions stay 0 (default 3)"},
         {"test-permille", true, "train: held-out share in permille (default 100)"},
         {"seed", true,
          "train: seed of the held-out split; selfplay: seed of the openings and random moves (default 1)"},
         {"max-games", true, "train: use only the first N games (0 = all)"},
         {"weights", true, "measure/bench/probcut: weights file (default: the embedded weights)"},
         {"movetime", true, "measure: engine search per position, as go movetime MS"},
         {"depth", true, "measure: engine search per position, as go depth N; selfplay: search depth (default 6)"},
         {"selectivity", true,
          "measure: Multi-ProbCut confidence in percent, 100 = off (default 100); selfplay: default 95"},
         {"eval", true, "measure: evaluation of the engine search, pattern or heuristic (default pattern)"},
         {"ordering", true,
          "measure: move ordering of the engine search, normal or evaluated (the engine's; default normal)"},
         {"limit", true, "measure: only the first N positions of each file (default all)"},
         {"depths", true, "measure: also fixed-depth searches at these depths, e.g. 2,4,8 (heuristic vs pattern)"},
         {"by-loss", false, "measure: also the pattern evaluation's errors by each move's loss as it sees it"},
         {"positions", true, "bench: number of positions (default 200000)"},
         {"schedule", true,
          "probcut: D:N,... the first N positions searched to depth D (default 10:2100,11:1400,12:910)"},
         {"keep-model", false, "probcut: keep the --weights' calibrated cells; add only the cells they lack"},
         {"min-samples", true, "probcut: fewer positions leave a cell uncalibrated (default 100)"},
         {"threads", true,
          "train: threads building the samples (one WTHOR file each); probcut, selfplay: worker threads (default 1)"},
         {"clear-per-depth", false,
          "probcut: clear the table before every depth, not only per position (a check: same values)"},
         {"queue", true,
          "selfplay: redis://HOST:PORT/NAME: the games are played by selfplay-workers (docs/scale.md); "
          "selfplay-worker: the job to work for; a Redis password from REVERSI_REDIS_PASSWORD"},
         {"reclaim-after", true,
          "selfplay-worker: seconds after which a batch of a worker that stopped is played again (default 120)"},
         {"consumer", true, "selfplay-worker: this worker's name in the consumer group (default HOST-PID)"},
         {"log-level", true, "trace, debug, info, warn, error, off (default info)"}},
        "Reproduce the shipped weights: see docs/eval.md."};
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec = program_spec();
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    if (!cli::init_logging("reversi-train", parsed.args.get("log-level", "info"))) return 2;
    auto& args = parsed.args;
    if (args.positional.empty()) {
        std::fprintf(
            stderr,
            "reversi-train: missing command (train, measure, bench, embed, probcut, selfplay or selfplay-worker); see "
            "--help\n");
        return 2;
    }
    const std::string command = args.positional.front();
    args.positional.erase(args.positional.begin());
    // A file system or stream failure that a command does not report itself (a --cache path that is a
    // file, a --search-checkpoint that is a folder) ends the run with its message, not an abort.
    try {
        return run_command(command, args);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "reversi-train: %s: %s\n", command.c_str(), e.what());
        return 1;
    }
}
