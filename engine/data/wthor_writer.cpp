#include "engine/data/wthor_writer.hpp"

#include "engine/board/notation.hpp"
#include "engine/core/replace_file.hpp"

namespace reversi::data {

namespace {

void put16(std::vector<std::uint8_t>& out, unsigned v) {
    out.push_back(static_cast<std::uint8_t>(v & 0xFF));
    out.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFF));
}

}  // namespace

Expected<std::vector<std::uint8_t>> serialize_wthor(const WthorFile& file) {
    const WthorHeader& h = file.header;
    if (h.board_size != 8 || h.game_type != 0) return make_error("WTHOR writer: only 8x8 normal games are written");
    if (h.theory_depth < 0 || h.theory_depth > 60)
        return make_error("WTHOR writer: theoretical-score depth out of 0-60");
    std::vector<std::uint8_t> out;
    out.reserve(kWthorHeaderSize + kWthorGameSize * file.games.size());
    out.push_back(static_cast<std::uint8_t>(h.created_year / 100));
    out.push_back(static_cast<std::uint8_t>(h.created_year % 100));
    out.push_back(static_cast<std::uint8_t>(h.created_month));
    out.push_back(static_cast<std::uint8_t>(h.created_day));
    const auto n = static_cast<std::uint32_t>(file.games.size());
    put16(out, n & 0xFFFF);
    put16(out, n >> 16);
    put16(out, 0);  // N2: unused for game files
    put16(out, static_cast<unsigned>(h.games_year));
    out.push_back(0);  // P1: 0 stands for 8x8
    out.push_back(0);  // P2: normal games
    out.push_back(static_cast<std::uint8_t>(h.theory_depth));
    out.push_back(0);  // reserved
    for (std::size_t g = 0; g < file.games.size(); ++g) {
        const WthorGame& game = file.games[g];
        const auto fail = [&](const std::string& what) {
            return make_error("WTHOR writer: game " + std::to_string(g + 1) + ": " + what);
        };
        if (game.black_score < 0 || game.black_score > 64 || game.theoretical_black_score < 0 ||
            game.theoretical_black_score > 64) {
            return fail("score outside 0-64");
        }
        if (game.moves.size() > 60) return fail(std::to_string(game.moves.size()) + " moves (at most 60)");
        put16(out, game.tournament);
        put16(out, game.black_player);
        put16(out, game.white_player);
        out.push_back(static_cast<std::uint8_t>(game.black_score));
        out.push_back(static_cast<std::uint8_t>(game.theoretical_black_score));
        for (std::size_t m = 0; m < 60; ++m) {
            if (m >= game.moves.size()) {
                out.push_back(0);
                continue;
            }
            const Move sq = game.moves[m];
            if (sq >= 64)
                return fail("move " + std::to_string(m + 1) + " (" + move_to_string(sq) + ") is not a square");
            out.push_back(static_cast<std::uint8_t>(10 * (sq / 8 + 1) + sq % 8 + 1));
        }
    }
    return out;
}

Expected<bool> write_wthor_file(const std::string& path, const WthorFile& file) {
    auto bytes = serialize_wthor(file);
    if (!bytes) return bytes.error();
    return replace_file(path, *bytes, "WTHOR");
}

}  // namespace reversi::data
