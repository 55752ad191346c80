// Opening files.
#include "engine/data/openings.hpp"

#include <cctype>
#include <fstream>

#include "engine/board/notation.hpp"
#include "engine/core/regular_file.hpp"

namespace reversi::data {

Position Opening::position() const {
    Position pos = start;
    for (Move m : moves) pos = pos.play_move(m);
    return pos;
}

namespace {

std::string trim(const std::string& s) {
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

}  // namespace

Expected<Opening> parse_opening(const std::string& raw, Variant variant) {
    const std::string line = trim(raw);
    Opening op;
    op.text = line;
    // A board string has at least 65 non-blank characters; a transcript of 32+ moves would too, but a
    // transcript starts with a letter a-h followed by a digit.
    std::string compact;
    for (char c : line) {
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    }
    const bool looks_like_transcript = compact.size() >= 2 && std::isalpha(static_cast<unsigned char>(compact[0])) &&
                                       std::isdigit(static_cast<unsigned char>(compact[1]));
    if (!looks_like_transcript && compact.size() >= 65) {
        auto board = parse_board(line, variant);
        if (!board) return board.error();
        op.start = *board;
    } else {
        op.start = start_position(variant);
        auto moves = parse_transcript(line);
        if (!moves) return moves.error();
        auto played = play_moves(op.start, *moves);
        if (!played) return played.error();
        op.moves = *moves;
    }
    if (op.position().is_over()) return make_error("the game is already over after this opening");
    return op;
}

Expected<std::vector<Opening>> read_openings(const std::string& path, Variant variant) {
    if (exists_but_not_regular(path)) return make_error("openings file " + path + ": not a regular file");
    std::ifstream in(path);
    if (!in) return make_error("cannot open openings file " + path);
    std::vector<Opening> out;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#' || t[0] == '%') continue;
        auto op = parse_opening(t, variant);
        if (!op) return make_error(path + ":" + std::to_string(number) + ": " + op.error().message);
        out.push_back(std::move(*op));
    }
    if (out.empty()) return make_error("no openings in " + path);
    return out;
}

}  // namespace reversi::data
