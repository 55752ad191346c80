#pragma once
// Balanced random openings for matches (reversi-match --random-openings): random legal games of N plies
// kept when a shallow search scores the result within +-K discs. It lives here, above the engine's data
// readers (engine/data/openings.hpp), because it runs the engine's Searcher.
#include <cstdint>
#include <vector>

#include "engine/board/variant.hpp"
#include "engine/core/expected.hpp"
#include "engine/data/openings.hpp"

namespace reversi::match {

struct RandomOpeningSpec {
    int plies = 8;         // random legal moves from the variant's start (a forced pass counts as one)
    int balance = 64;      // keep when |score| <= balance discs
    int search_depth = 4;  // depth of the balancing search (0: keep every opening)
    std::uint64_t seed = 1;
};

// `count` distinct random openings (deterministic for a seed).
[[nodiscard]] Expected<std::vector<data::Opening>> random_openings(const RandomOpeningSpec& spec, int count,
                                                                   Variant variant);

}  // namespace reversi::match
