#include "engine/data/wthor.hpp"

#include <fstream>
#include <iterator>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/core/regular_file.hpp"

namespace reversi::data {

namespace {

std::uint16_t get16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t get32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

}  // namespace

Expected<WthorFile> parse_wthor(std::span<const std::uint8_t> bytes, const std::string& source) {
    const auto fail = [&](const std::string& what) { return make_error("WTHOR " + source + ": " + what); };
    if (bytes.size() < kWthorHeaderSize) {
        return fail("truncated: " + std::to_string(bytes.size()) + " bytes, the header alone needs 16");
    }
    const std::uint8_t* h = bytes.data();
    WthorFile file;
    file.header.created_year = h[0] * 100 + h[1];
    file.header.created_month = h[2];
    file.header.created_day = h[3];
    file.header.game_count = get32(h + 4);
    file.header.games_year = get16(h + 10);
    file.header.board_size = h[12] == 0 ? 8 : h[12];
    file.header.game_type = h[13];
    file.header.theory_depth = h[14];
    if (file.header.board_size != 8) return fail("board size " + std::to_string(h[12]) + " (only 8x8 games are read)");
    if (file.header.game_type != 0) return fail("game type " + std::to_string(h[13]) + " (only normal games are read)");
    if (file.header.theory_depth > 60) return fail("theoretical-score depth " + std::to_string(h[14]) + " > 60");
    const std::size_t expected = kWthorHeaderSize + kWthorGameSize * static_cast<std::size_t>(file.header.game_count);
    if (bytes.size() < expected) {
        return fail("truncated: the header announces " + std::to_string(file.header.game_count) + " games (" +
                    std::to_string(expected) + " bytes), the file has " + std::to_string(bytes.size()));
    }
    if (bytes.size() > expected) {
        return fail("size mismatch: " + std::to_string(bytes.size() - expected) + " bytes after the " +
                    std::to_string(file.header.game_count) + " announced games");
    }
    file.games.reserve(file.header.game_count);
    for (std::uint32_t g = 0; g < file.header.game_count; ++g) {
        const std::uint8_t* r = h + kWthorHeaderSize + kWthorGameSize * g;
        WthorGame game;
        game.tournament = get16(r);
        game.black_player = get16(r + 2);
        game.white_player = get16(r + 4);
        game.black_score = r[6];
        game.theoretical_black_score = r[7];
        if (game.black_score > 64 || game.theoretical_black_score > 64) {
            return fail("game " + std::to_string(g + 1) + ": score above 64");
        }
        for (int m = 0; m < 60; ++m) {
            const int code = r[8 + m];
            if (code == 0) break;
            const int row = code / 10;
            const int column = code % 10;
            if (row < 1 || row > 8 || column < 1 || column > 8) {
                return fail("game " + std::to_string(g + 1) + ", move " + std::to_string(m + 1) + ": byte " +
                            std::to_string(code) + " is not a square");
            }
            game.moves.push_back(static_cast<Move>(make_square(column - 1, row - 1)));
        }
        file.games.push_back(std::move(game));
    }
    return file;
}

Expected<WthorFile> read_wthor_file(const std::string& path) {
    if (exists_but_not_regular(path)) return make_error("WTHOR " + path + ": not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error("WTHOR " + path + ": cannot open the file");
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return make_error("WTHOR " + path + ": read error");
    return parse_wthor(bytes, path);
}

Expected<ReplayedGame> replay_game(const WthorGame& game) {
    ReplayedGame out;
    Position pos = start_position();
    out.before_move.reserve(game.moves.size());
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        if (pos.must_pass()) pos = pos.pass();
        const int sq = game.moves[i];
        if (!(pos.moves() & square_bit(sq))) {
            return make_error("move " + std::to_string(i + 1) + " (" + move_to_string(game.moves[i]) + ") is illegal");
        }
        out.before_move.push_back(pos);
        pos = pos.play(sq);
    }
    if (pos.must_pass()) pos = pos.pass();
    out.last = pos;
    return out;
}

}  // namespace reversi::data
