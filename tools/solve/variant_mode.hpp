#pragma once
// reversi-solve --variant: the exact solves of the boards other than 8x8 (variant_mode.cpp).
#include <cstddef>
#include <optional>
#include <string>

#include "engine/board/variant.hpp"

namespace reversi::solve_tool {

struct VariantRun {
    Variant variant = Variant::Board6x6;
    std::optional<std::string> file;  // a variant OBF file; none: the variant's start position
    std::size_t hash_mib = 256;
    bool wld = false;
    bool verbose = false;
    int threads = 1;
    int split_empties = 18;  // --split-from
};

// Solves the file's positions (checking the expected scores) or the start position; prints a table or
// the start's score, time, nodes, nodes/s and principal variation. Returns the exit status: 0, 1 when a
// score differs from the file's, 2 on a bad file.
[[nodiscard]] int solve_variant(const VariantRun& run);

}  // namespace reversi::solve_tool
