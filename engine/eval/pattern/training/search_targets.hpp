#pragma once
// Searched targets: the value of a search from the position itself replaces (or is blended into) the
// target of the midgame samples, whose game results are mostly the noise of the players' later mistakes.
// The search is a plug-in (`PositionScorer`, one per thread from a factory), so this file does not
// depend on the search library; reversi-train plugs in the engine's own search at a fixed depth.
//
// Long runs are resumable: every finished block of positions is appended to a checkpoint file, and a
// later run with the same tag takes the scores found there instead of searching again.
//
// Checkpoint file ("RVST" v1): magic, version u32, tag u32, then chunks until the end of the file, each
// count u32, `count` records of player u64, opponent u64, score i8 (17 bytes), then the CRC-32 of the
// chunk's count and records. A chunk cut short by an interrupted write ends the file's usable part; a
// bad magic, version, tag or chunk checksum is an error, never half-read.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"
#include "engine/eval/pattern/training/training_set.hpp"

namespace reversi::eval {

// A search value in discs for the side to move, or nullopt when the scorer declines.
using PositionScorer = std::function<std::optional<int>(const Position&)>;

struct SearchTargetConfig {
    int min_empties = 30;  // samples with min_empties..max_empties empties are searched
    int max_empties = 60;
    double weight = 1.0;      // new target = w * search + (1 - w) * old target, w = weight at min_empties
    double weight_high = -1;  // w at max_empties, linear between (< 0: weight everywhere)
    int threads = 1;
    std::function<PositionScorer()> scorer_factory;  // one scorer per thread
    std::string checkpoint_path;                     // empty: no checkpoint
    std::uint32_t tag = 0;                           // identifies the scorer's settings in the checkpoint
    std::size_t block = 2048;                        // positions per checkpoint chunk
};

// The blend weight w of a sample with `empties` empty squares (see SearchTargetConfig).
[[nodiscard]] double search_weight_at(const SearchTargetConfig& config, int empties) noexcept;

struct SearchTargetReport {
    std::size_t selected = 0;         // samples in the empties range
    std::size_t searched = 0;         // searched in this run
    std::size_t from_checkpoint = 0;  // scores taken from the checkpoint file
    std::size_t declined = 0;         // the scorer declined: target left as it was
    double mean_abs_change = 0;       // mean |search - old target| over the scored samples, in discs
};

using SearchTargetProgress = std::function<void(std::size_t done, std::size_t total)>;

// Scores the selected samples (from the checkpoint where it has them) and rewrites their targets.
// The result does not depend on `threads` when each scorer's answer depends only on the position.
[[nodiscard]] Expected<SearchTargetReport> apply_search_targets(std::vector<Sample>& samples,
                                                                const SearchTargetConfig& config,
                                                                const SearchTargetProgress& progress = {});

struct ScoredPosition {
    Bitboard player = 0;
    Bitboard opponent = 0;
    std::int8_t score = 0;
};

// The usable records of a checkpoint file (none when the file does not exist).
[[nodiscard]] Expected<std::vector<ScoredPosition>> load_search_checkpoint(const std::string& path, std::uint32_t tag);

}  // namespace reversi::eval
