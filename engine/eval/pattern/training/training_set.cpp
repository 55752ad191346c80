#include "engine/eval/pattern/training/training_set.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

#include "engine/core/little_endian.hpp"
#include "engine/core/replace_file.hpp"
#include "engine/eval/pattern/symmetry.hpp"
#include "engine/eval/weights/weights_file.hpp"

namespace reversi::eval {

std::pair<Bitboard, Bitboard> canonical_form(Bitboard player, Bitboard opponent) noexcept {
    std::pair<Bitboard, Bitboard> best{player, opponent};
    for (int g = 1; g < kSymmetryCount; ++g) {
        const std::pair<Bitboard, Bitboard> image{transform(g, player), transform(g, opponent)};
        if (image < best) best = image;
    }
    return best;
}

namespace {

// The exact scores (black's view) of a game's solved positions, and the anchor for blending: the exact
// value of the first solved position on the line, else the final result (the game ended before the limit).
struct SolvedLine {
    std::vector<std::optional<int>> exact_black;
    int anchor_black = 0;
    int anchor_empties = 0;
};

SolvedLine solve_line(const data::WthorGame& game, const data::ReplayedGame& replayed, int theory_depth,
                      const TargetPolicy& policy, TargetStats& stats) {
    const auto& line = replayed.before_move;
    const int theory_black = 2 * game.theoretical_black_score - 64;
    SolvedLine solved;
    solved.exact_black.resize(line.size());
    std::optional<int> anchor_black;
    Move best_move = kNoMove;  // the solver's best move in the last solved position of the line
    const auto anchor = [&](int black, int empties) {
        if (anchor_black) return;
        anchor_black = black;
        solved.anchor_empties = empties;
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        const Position& pos = line[i];
        if (pos.empty_count() > policy.exact_empties || !policy.solver) continue;
        if (policy.perfect_from_theory && pos.empty_count() <= theory_depth) {
            solved.exact_black[i] = theory_black;  // perfect play from the theory depth: the value never changes
            anchor(theory_black, pos.empty_count());
            continue;
        }
        if (i > 0 && solved.exact_black[i - 1] && best_move == game.moves[i - 1]) {
            solved.exact_black[i] = solved.exact_black[i - 1];  // the game followed a best move: same value
            best_move = kNoMove;
            continue;
        }
        ++stats.solves;
        const auto v = policy.solver(pos);
        best_move = v ? v->best_move : kNoMove;
        if (v) {
            solved.exact_black[i] = pos.side == Color::Black ? v->score : -v->score;
            anchor(*solved.exact_black[i], pos.empty_count());
        }
    }
    anchor(2 * game.black_score - 64, replayed.last.empty_count());
    solved.anchor_black = *anchor_black;
    return solved;
}

}  // namespace

Expected<std::vector<RawSample>> game_samples(const data::WthorGame& game, int theory_depth, const TargetPolicy& policy,
                                              TargetStats& stats) {
    auto replayed = data::replay_game(game);
    if (!replayed) return replayed.error();
    ++stats.games;
    std::vector<RawSample> out;
    if (!replayed->finished()) {
        ++stats.unfinished_games;
        return out;
    }
    const int actual_black = 2 * game.black_score - 64;
    const int theory_black = 2 * game.theoretical_black_score - 64;
    const auto& line = replayed->before_move;
    const SolvedLine solved = solve_line(game, *replayed, theory_depth, policy, stats);
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        const Position& pos = line[i];
        const int empties = pos.empty_count();
        int black = 0;
        if (solved.exact_black[i]) {
            black = *solved.exact_black[i];
            ++stats.exact;
        } else if (empties >= theory_depth) {
            black = theory_black;
            ++stats.theoretical;
        } else if (policy.blend && theory_depth > solved.anchor_empties) {
            // Linear blend between the two nearest values known for this line: the theoretical score
            // (exact at theory_depth empties) and the anchor (exact at anchor_empties).
            const double t =
                static_cast<double>(empties - solved.anchor_empties) / (theory_depth - solved.anchor_empties);
            black = static_cast<int>(std::lround(t * theory_black + (1 - t) * solved.anchor_black));
            ++stats.blended;
        } else {
            black = actual_black;
            ++stats.actual;
        }
        const int target = pos.side == Color::Black ? black : -black;
        const auto [p, o] = canonical_form(pos.player, pos.opponent);
        out.push_back(RawSample{p, o, static_cast<std::int8_t>(target)});
        ++stats.positions;
    }
    return out;
}

std::vector<Sample> deduplicate(std::vector<RawSample> raw) {
    std::sort(raw.begin(), raw.end(), [](const RawSample& a, const RawSample& b) {
        return a.player != b.player ? a.player < b.player : a.opponent < b.opponent;
    });
    std::vector<Sample> out;
    std::size_t i = 0;
    while (i < raw.size()) {
        std::size_t j = i;
        double sum = 0;
        while (j < raw.size() && raw[j].player == raw[i].player && raw[j].opponent == raw[i].opponent)
            sum += raw[j++].target;
        const auto n = static_cast<std::uint32_t>(j - i);
        out.push_back(Sample{raw[i].player, raw[i].opponent, static_cast<float>(sum / n), n});
        i = j;
    }
    return out;
}

namespace {

constexpr std::uint32_t kSamplesVersion = 1;
constexpr std::size_t kSamplesHeader = 20;
constexpr std::size_t kRecord = 17;

}  // namespace

Expected<bool> save_samples(const std::string& path, std::uint32_t tag, const std::vector<RawSample>& samples) {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(kSamplesHeader + kRecord * samples.size() + 4);
    for (char c : std::string_view("RVTS")) bytes.push_back(static_cast<std::uint8_t>(c));
    put_le<std::uint32_t>(bytes, kSamplesVersion);
    put_le<std::uint32_t>(bytes, tag);
    put_le<std::uint64_t>(bytes, samples.size());
    for (const auto& s : samples) {
        put_le<std::uint64_t>(bytes, s.player);
        put_le<std::uint64_t>(bytes, s.opponent);
        bytes.push_back(static_cast<std::uint8_t>(s.target));
    }
    put_le<std::uint32_t>(bytes, crc32(bytes));
    return replace_file(path, bytes, "samples");
}

Expected<std::vector<RawSample>> load_samples(const std::string& path, std::uint32_t tag) {
    auto read = read_weights_bytes(path, kAnyFileBytes, {}, "samples");
    if (!read) return read.error();
    const std::vector<std::uint8_t> bytes = std::move(*read);
    const auto fail = [&](const std::string& what) { return make_error("samples " + path + ": " + what); };
    if (bytes.size() < kSamplesHeader + 4 || std::memcmp(bytes.data(), "RVTS", 4) != 0)
        return fail("not a sample cache");
    if (get_le<std::uint32_t>(bytes.data() + 4) != kSamplesVersion) return fail("other cache version");
    if (get_le<std::uint32_t>(bytes.data() + 8) != tag) return fail("built with another target policy");
    const auto count = get_le<std::uint64_t>(bytes.data() + 12);
    if (count > (bytes.size() - kSamplesHeader - 4) / kRecord || bytes.size() != kSamplesHeader + kRecord * count + 4) {
        return fail("truncated or over-long");
    }
    if (crc32(std::span<const std::uint8_t>(bytes.data(), bytes.size() - 4)) !=
        get_le<std::uint32_t>(bytes.data() + bytes.size() - 4)) {
        return fail("corrupted (checksum mismatch)");
    }
    std::vector<RawSample> out(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint8_t* r = bytes.data() + kSamplesHeader + kRecord * i;
        out[i] = RawSample{get_le<std::uint64_t>(r), get_le<std::uint64_t>(r + 8), static_cast<std::int8_t>(r[16])};
    }
    return out;
}

}  // namespace reversi::eval
