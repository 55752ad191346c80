#pragma once
// Variants: the 8x8 bitboard with a mask of playable squares, a start position and a scoring rule.
#include <array>
#include <string_view>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"

namespace reversi {

enum class Variant : std::uint8_t { Standard, Board6x6, Board4x4, Diamond, DiamondParallel, Board6x6Parallel };

struct VariantInfo {
    Variant id;
    std::string_view name;  // as written in protocols and tools: 8x8, 6x6, 4x4, diamond, ...
    Bitboard playable;
    Bitboard black_start;
    Bitboard white_start;
    ScoreRule rule;
};

[[nodiscard]] const VariantInfo& variant_info(Variant v) noexcept;
[[nodiscard]] const std::array<VariantInfo, 6>& all_variants() noexcept;
// Case-insensitive name ("8x8", "standard", "6x6", "4x4", "diamond", "diamond-parallel", "6x6-parallel").
[[nodiscard]] Expected<Variant> parse_variant(std::string_view name);
// The variant whose board is `playable` (Standard when none matches exactly; the first listed when two
// share the board and rule: 6x6 for 6x6-parallel, diamond for diamond-parallel).
[[nodiscard]] Variant variant_of(const Position& pos) noexcept;

// The variant's start position, black to move.
[[nodiscard]] Position start_position(Variant v = Variant::Standard) noexcept;

}  // namespace reversi
