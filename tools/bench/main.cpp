// reversi-bench: the search fingerprint (fixed positions, fixed depth, one thread, fixed hash:
// "Nodes searched: N") and speed figures of the board layer (perft with bulk counting, move generation
// and flips).
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "engine/board/perft.hpp"
#include "engine/board/variant.hpp"
#include "engine/search/bench.hpp"
#include "protocol/cli/command_line.hpp"

using namespace reversi;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Random positions reached by random play from the start, for move-generation throughput.
std::vector<Position> sample_positions(int count, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    while (static_cast<int>(out.size()) < count) {
        Position pos = start_position();
        while (!pos.is_over() && static_cast<int>(out.size()) < count) {
            out.push_back(pos);
            const Bitboard moves = pos.moves();
            if (!moves) {
                pos = pos.pass();
                continue;
            }
            std::vector<int> list;
            for (int sq : squares(moves)) list.push_back(sq);
            pos = pos.play(list[rng() % list.size()]);
        }
    }
    return out;
}

cli::ProgramSpec program_spec() {
    cli::ProgramSpec spec{
        "reversi-bench",
        "reversi-bench [--depth N] [--hash MIB] [--search-only] [--perft-depth N] [--positions N]",
        "First the search fingerprint: 8 fixed positions searched with the engine's search (iterative\n"
        "deepening + negascout + TT + aspiration + Multi-ProbCut at the engine's default selectivity),\n"
        "one thread, a cleared table of fixed size, fixed depth;\n"
        "it prints 'Nodes searched: N' (the same on every run and machine) and the speed. Then it measures\n"
        "the board layer: perft from the 8x8 start (a pass counts as a ply, a game that ends before the\n"
        "horizon is one leaf; bulk counting at the last ply), then legal-move generation and flip\n"
        "computation over random reachable positions.",
        {{"depth", true, "search depth of the fingerprint (default 10)"},
         {"hash", true, "table size in MiB for the fingerprint (default 16)"},
         {"search-only", false, "print the fingerprint only"},
         {"perft-depth", true, "perft depth from the 8x8 start (default 10)"},
         {"positions", true, "random positions for the move-generation loop (default 1000000)"}},
        ""};
    spec.takes_positional = false;
    return spec;
}

// The search fingerprint: 'Nodes searched: N' (tools/scripts/check-bench.sh reads it) and the speed.
void print_fingerprint(long long depth, long long hash) {
    BenchOptions bench_options;
    bench_options.depth = static_cast<int>(depth);
    bench_options.hash_mib = static_cast<std::size_t>(hash);
    const BenchResult bench =
        run_bench(bench_options, [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
    const double bench_seconds = static_cast<double>(bench.time.count()) / 1000.0;
    std::printf("Positions: %d  depth %lld  hash %lld MiB  threads 1\n", bench.positions, depth, hash);
    std::printf("Total time (ms): %lld\n", static_cast<long long>(bench.time.count()));
    std::printf("Nodes/second: %.0f\n", bench_seconds > 0 ? static_cast<double>(bench.nodes) / bench_seconds : 0.0);
    std::printf("Nodes searched: %llu\n", static_cast<unsigned long long>(bench.nodes));
    std::fflush(stdout);
}

void print_perft(long long depth) {
    const Position start = start_position();
    for (int d = 1; d <= depth; ++d) {
        const auto t0 = Clock::now();
        const auto nodes = perft(start, d);
        const double s = seconds_since(t0);
        std::printf("perft %2d %14llu  %8.3f s  %8.1f Mnodes/s\n", d, static_cast<unsigned long long>(nodes), s,
                    s > 0 ? static_cast<double>(nodes) / s / 1e6 : 0.0);
    }
}

// Legal-move generation and flips over `count` random reachable positions; the checksum keeps the loops.
void print_move_generation(long long count) {
    const auto positions = sample_positions(static_cast<int>(count), 12345);
    Bitboard sink = 0;
    auto t0 = Clock::now();
    for (int rep = 0; rep < 10; ++rep) {
        for (const auto& p : positions) sink ^= legal_moves(p.player ^ (sink & 1), p.opponent);
    }
    double s = seconds_since(t0);
    std::printf("legal_moves  %8.1f M calls/s\n", 10.0 * static_cast<double>(positions.size()) / s / 1e6);

    long long flip_calls = 0;
    t0 = Clock::now();
    for (const auto& p : positions) {
        for (int sq : squares(p.moves())) {
            sink ^= flips(p.player, p.opponent, sq);
            ++flip_calls;
        }
    }
    s = seconds_since(t0);
    std::printf("flips        %8.1f M calls/s  (%lld calls)\n", static_cast<double>(flip_calls) / s / 1e6, flip_calls);
    std::printf("checksum %016llx\n", static_cast<unsigned long long>(sink));
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec = program_spec();
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    auto depth = parsed.args.get_int("perft-depth", 10, 1, 16);
    auto count = parsed.args.get_int("positions", 1000000, 1, 100000000);
    auto search_depth = parsed.args.get_int("depth", 10, 1, 30);
    auto hash = parsed.args.get_int("hash", 16, 1, 65536);
    for (const auto* v : {&depth, &count, &search_depth, &hash}) {
        if (!*v) {
            std::fprintf(stderr, "reversi-bench: %s\n", v->error().message.c_str());
            return 2;
        }
    }
    print_fingerprint(*search_depth, *hash);
    if (parsed.args.has("search-only")) return 0;
    print_perft(*depth);
    print_move_generation(*count);
    return 0;
}
