#include "engine/board/variant.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace reversi {

namespace {

constexpr Bitboard rectangle(int first_column, int first_row, int last_column, int last_row) {
    Bitboard b = 0;
    for (int r = first_row; r <= last_row; ++r) {
        for (int c = first_column; c <= last_column; ++c) {
            b |= square_bit(make_square(c, r));
        }
    }
    return b;
}

constexpr Bitboard sq(char column, int row) { return square_bit(make_square(column - 'a', row - 1)); }

// d2 e2 / c3-f3 / b4-g4 / b5-g5 / c6-f6 / d7 e7
constexpr Bitboard kDiamond = rectangle(3, 1, 4, 1) | rectangle(2, 2, 5, 2) | rectangle(1, 3, 6, 4) |
                              rectangle(2, 5, 5, 5) | rectangle(3, 6, 4, 6);
constexpr Bitboard kDiagonalWhite = sq('d', 4) | sq('e', 5);
constexpr Bitboard kDiagonalBlack = sq('d', 5) | sq('e', 4);

constexpr std::array<VariantInfo, 6> kVariants = {{
    {Variant::Standard, "8x8", ~Bitboard{0}, kDiagonalBlack, kDiagonalWhite, ScoreRule::EmptiesToWinner},
    {Variant::Board6x6, "6x6", rectangle(1, 1, 6, 6), kDiagonalBlack, kDiagonalWhite, ScoreRule::EmptiesToWinner},
    {Variant::Board4x4, "4x4", rectangle(2, 2, 5, 5), kDiagonalBlack, kDiagonalWhite, ScoreRule::EmptiesToWinner},
    {Variant::Diamond, "diamond", kDiamond, kDiagonalBlack, kDiagonalWhite, ScoreRule::DiscDifference},
    {Variant::DiamondParallel, "diamond-parallel", kDiamond, sq('e', 4) | sq('e', 5), sq('d', 4) | sq('d', 5),
     ScoreRule::DiscDifference},
    // The parallel start on 6x6 (solved: 19-17 for white), placed like diamond-parallel's.
    {Variant::Board6x6Parallel, "6x6-parallel", rectangle(1, 1, 6, 6), sq('e', 4) | sq('e', 5), sq('d', 4) | sq('d', 5),
     ScoreRule::EmptiesToWinner},
}};

static_assert(popcount(kDiamond) == 24);

}  // namespace

const std::array<VariantInfo, 6>& all_variants() noexcept { return kVariants; }

const VariantInfo& variant_info(Variant v) noexcept { return kVariants[static_cast<std::size_t>(v)]; }

Expected<Variant> parse_variant(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "standard" || lower == "8x8") {
        return Variant::Standard;
    }
    for (const auto& info : kVariants) {
        if (lower == info.name) {
            return info.id;
        }
    }
    return make_error("unknown variant '" + std::string(name) +
                      "' (expected 8x8, 6x6, 4x4, diamond, diamond-parallel or 6x6-parallel)");
}

Variant variant_of(const Position& pos) noexcept {
    for (const auto& info : kVariants) {
        if (info.playable == pos.playable && info.rule == pos.rule) {
            return info.id;
        }
    }
    return Variant::Standard;
}

Position start_position(Variant v) noexcept {
    const auto& info = variant_info(v);
    return Position{info.black_start, info.white_start, info.playable, Color::Black, info.rule};
}

}  // namespace reversi
