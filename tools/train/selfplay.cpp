// reversi-train selfplay: games of the engine against itself from XOT openings, written as a WTHOR file
// for the trainer. After the opening, --random-plies uniformly random moves (the randomness that reaches
// positions humans avoid), then the engine's search at --depth (Multi-ProbCut at --selectivity) until
// --exact-from empties, then perfect play by the endgame solver. So the final score is the exact score
// of every position from --exact-from empties on, and the file records it as the theoretical score with
// that depth: the trainer gives those positions exact targets and earlier ones the game's result.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>
#include <thread>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "engine/board/random_move.hpp"
#include "engine/data/openings.hpp"
#include "engine/data/wthor_writer.hpp"
#include "engine/endgame/solver.hpp"
#include "engine/search/searcher.hpp"
#include "tools/train/commands.hpp"

namespace reversi::train {

namespace {

struct SelfPlaySettings {
    int depth = 6;
    int selectivity = kEngineSelectivityPercent;
    int random_plies = 2;
    int exact_from = 20;
    std::uint64_t seed = 1;
};

// One game from an opening; deterministic for the seed (the tables are cleared first).
Expected<data::WthorGame> play_game(const data::Opening& opening, const SelfPlaySettings& s, std::uint64_t seed,
                                    Searcher& searcher, endgame::EndgameSolver& solver) {
    searcher.clear();
    solver.clear();
    std::mt19937_64 rng(seed);
    const std::atomic<bool> stop{false};
    data::WthorGame game;
    Position pos = start_position();
    int after_opening = 0;
    while (!pos.is_over()) {
        if (pos.must_pass()) {
            pos = pos.pass();
            continue;
        }
        Move m = kNoMove;
        if (game.moves.size() < opening.moves.size()) {
            m = opening.moves[game.moves.size()];  // legal: read_openings replayed it
        } else if (after_opening++ < s.random_plies) {
            m = random_legal_move(pos, rng);
        } else if (pos.empty_count() <= s.exact_from) {
            auto r = solver.solve(pos, endgame::SolveOptions{}, stop);
            if (!r) return r.error();
            m = r->best_move;
        } else {
            SearchLimits limits;
            limits.depth = s.depth;
            m = searcher.search(pos, limits, SearchCallbacks{}, stop).best_move;
        }
        if (m >= 64 || !(pos.moves() & square_bit(m))) return make_error("the search returned " + move_to_string(m));
        game.moves.push_back(m);
        pos = pos.play(m);
    }
    const int black = pos.side == Color::Black ? pos.final_score() : -pos.final_score();
    game.black_score = (black + 64) / 2;
    game.theoretical_black_score = game.black_score;  // perfect play from exact_from empties on
    return game;
}

}  // namespace

int run_selfplay(const cli::ParsedArgs& args) {
    const auto games = args.get_int("games", 1000, 1, 10000000);
    const auto depth = args.get_int("depth", 6, 1, 30);
    const auto selectivity =
        args.get_int("selectivity", kEngineSelectivityPercent, kMinSelectivityPercent, kMaxSelectivityPercent);
    const auto random_plies = args.get_int("random-plies", 2, 0, 60);
    const auto exact_from = args.get_int("exact-from", 20, 0, 30);
    const auto threads = args.get_int("threads", 1, 1, 256);
    const auto seed = args.get_int("seed", 1, 0, 1LL << 62);
    for (const auto* v : {&games, &depth, &selectivity, &random_plies, &exact_from, &threads, &seed}) {
        if (!*v) {
            std::fprintf(stderr, "reversi-train: %s\n", v->error().message.c_str());
            return 2;
        }
    }
    const std::string out = args.get("out", "");
    if (out.empty() || !out.ends_with(".wtb")) {
        std::fprintf(stderr, "reversi-train: selfplay needs --out FILE.wtb\n");
        return 2;
    }
    auto openings =
        data::read_openings(args.get("openings", "../shared/data/openings/xot/openingslarge.txt"), Variant::Standard);
    if (!openings) {
        std::fprintf(stderr, "reversi-train: %s\n", openings.error().message.c_str());
        return 1;
    }
    for (const auto& o : *openings) {
        if (o.start != start_position()) {  // a board string: WTHOR games start from the standard position
            std::fprintf(stderr, "reversi-train: selfplay: opening '%s' is a board, not moves from the start\n",
                         o.text.c_str());
            return 1;
        }
    }
    SelfPlaySettings s{static_cast<int>(*depth), static_cast<int>(*selectivity), static_cast<int>(*random_plies),
                       static_cast<int>(*exact_from), static_cast<std::uint64_t>(*seed)};
    const auto n = static_cast<std::size_t>(*games);
    // Game i: opening number hash(seed, i) of the list, its own random stream; games are independent,
    // so the file does not depend on the thread count.
    const auto game_seed = [&](std::size_t i) {
        std::uint64_t z = s.seed * 0x9E3779B97F4A7C15ULL + i + 1;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    std::vector<data::WthorGame> played(n);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::string failure;
    std::size_t done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto last_report = t0;
    const auto work = [&] {
        Searcher searcher(16);
        SearchOptions options;
        options.selectivity = s.selectivity;
        options.ordering = kEngineOrdering;  // the engine's own search
        searcher.set_options(options);
        endgame::EndgameSolver solver(32);
        for (std::size_t i; !failed && (i = next++) < n;) {
            const std::uint64_t g = game_seed(i);
            const auto& opening = (*openings)[g % openings->size()];
            auto game = play_game(opening, s, g, searcher, solver);
            const std::lock_guard lock(mutex);
            if (!game) {
                failure = "game " + std::to_string(i + 1) + " (opening " + opening.text + "): " + game.error().message;
                failed = true;
                return;
            }
            played[i] = std::move(*game);
            ++done;
            const auto now = std::chrono::steady_clock::now();
            if (now - last_report > std::chrono::seconds(10) || done == n) {
                last_report = now;
                const double secs = std::chrono::duration<double>(now - t0).count();
                spdlog::info("selfplay: {}/{} games, {:.0f} s, about {:.0f} s left", done, n, secs,
                             secs / static_cast<double>(done) * static_cast<double>(n - done));
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (long long t = 1; t < *threads; ++t) pool.emplace_back(work);
        work();
    }
    if (failed) {
        std::fprintf(stderr, "reversi-train: selfplay: %s\n", failure.c_str());
        return 1;
    }
    data::WthorFile file;
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    file.header =
        data::WthorHeader{1900 + utc.tm_year, utc.tm_mon + 1, utc.tm_mday, 0, 1900 + utc.tm_year, 8, 0, s.exact_from};
    file.games = std::move(played);
    if (auto written = data::write_wthor_file(out, file); !written) {
        std::fprintf(stderr, "reversi-train: %s\n", written.error().message.c_str());
        return 1;
    }
    long long black_wins = 0, white_wins = 0;
    for (const auto& g : file.games) black_wins += g.black_score > 32, white_wins += g.black_score < 32;
    std::printf(
        "selfplay: %zu games written to %s (theoretical-score depth %d): black won %lld, white %lld, drawn %lld; "
        "%.0f s\n",
        n, out.c_str(), s.exact_from, black_wins, white_wins, static_cast<long long>(n) - black_wins - white_wins,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}

}  // namespace reversi::train
