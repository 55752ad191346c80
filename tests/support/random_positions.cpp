#include "tests/support/random_positions.hpp"

#include <filesystem>
#include <random>

#include "engine/board/random_move.hpp"

namespace reversi::testing {

std::vector<Position> random_positions(Variant variant, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    out.reserve(static_cast<std::size_t>(count));
    while (static_cast<int>(out.size()) < count) {
        Position pos = start_position(variant);
        while (static_cast<int>(out.size()) < count) {
            out.push_back(pos);
            if (pos.is_over()) break;
            pos = play_random_move(pos, rng);
        }
    }
    return out;
}

std::string shared_data_dir() {
    const std::filesystem::path dir(REVERSI_SHARED_DATA);
    return std::filesystem::is_directory(dir) ? dir.lexically_normal().string() : std::string();
}

}  // namespace reversi::testing
