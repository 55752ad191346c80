#include "tools/book/games_file.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "engine/data/wthor.hpp"
#include "protocol/nboard/ggf.hpp"

namespace reversi::book_tool {

namespace {

// Where the game opened at `open` ends: its ";)" outside the tag values ("[...]", in which "\]" is an
// escaped bracket), or npos. A value may hold ";)" (a player named "smiley ;)").
std::size_t ggf_game_end(const std::string& line, std::size_t open) {
    bool in_value = false;
    for (std::size_t i = open + 2; i < line.size(); ++i) {
        const char c = line[i];
        if (in_value) {
            if (c == '\\') {
                ++i;
            } else if (c == ']') {
                in_value = false;
            }
        } else if (c == '[') {
            in_value = true;
        } else if (c == ';' && i + 1 < line.size() && line[i + 1] == ')') {
            return i;
        }
    }
    return std::string::npos;
}

// Every `(; ... ;)` of a line.
void read_ggf_line(const std::string& line, const std::string& where, GamesFile& out) {
    std::size_t from = 0;
    for (int k = 1;; ++k) {
        const std::size_t open = line.find("(;", from);
        if (open == std::string::npos) return;
        const std::size_t close = ggf_game_end(line, open);
        const std::string name = where + " game " + std::to_string(k);
        if (close == std::string::npos) {
            out.skipped.push_back(name + ": GGF: unterminated game (no ';)' after its last closed tag value)");
            return;
        }
        auto game = nboard::parse_ggf(std::string_view(line).substr(open, close + 2 - open));
        if (game) {
            out.games.push_back({name, game->start, game->moves});
        } else {
            out.skipped.push_back(name + ": " + game.error().message);
        }
        from = close + 2;
    }
}

void read_transcript_line(const std::string& line, const std::string& where, GamesFile& out) {
    auto moves = parse_transcript(line);
    if (moves) {
        out.games.push_back({where, start_position(), *moves});
    } else {
        out.skipped.push_back(where + ": " + moves.error().message);
    }
}

bool is_wthor_path(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".wtb";
}

// Every game of a WTHOR file (from the start position; passes are not recorded there, learn plays them).
Expected<GamesFile> read_wthor_games(const std::string& path) {
    auto file = data::read_wthor_file(path);
    if (!file) return make_error("--games " + file.error().message);
    GamesFile out;
    for (std::size_t k = 0; k < file->games.size(); ++k) {
        out.games.push_back({path + " game " + std::to_string(k + 1), start_position(), file->games[k].moves});
    }
    return out;
}

}  // namespace

Expected<GamesFile> read_games_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return make_error("--games " + path + ": not a regular file");
    if (is_wthor_path(path)) return read_wthor_games(path);
    std::ifstream in(path);
    if (!in) return make_error("--games " + path + ": cannot open the file");
    GamesFile out;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#' || line[first] == '%') continue;
        const std::string where = path + ":" + std::to_string(number);
        if (line.find("(;") != std::string::npos) {
            read_ggf_line(line, where, out);
        } else {
            read_transcript_line(line, where, out);
        }
    }
    if (in.bad()) return make_error("--games " + path + ": read error");
    return out;
}

}  // namespace reversi::book_tool
