#include "engine/board/variant_notation.hpp"

#include <algorithm>
#include <cctype>

namespace reversi {

namespace {

struct Box {
    int first_column = 0;
    int first_row = 0;
};

Box box_of(Bitboard playable) {
    Box box{7, 7};
    for (const int sq : squares(playable)) {
        box.first_column = std::min(box.first_column, column_of(sq));
        box.first_row = std::min(box.first_row, row_of(sq));
    }
    return box;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

}  // namespace

Expected<Move> parse_local_move(std::string_view text, Variant variant) {
    text = trim(text);
    auto m = parse_move(text);  // the same syntax; shifted below
    if (!m) return m;
    if (*m == kPass || *m == kNoMove) return m;
    const Bitboard playable = variant_info(variant).playable;
    const Box box = box_of(playable);
    const int column = column_of(*m) + box.first_column;
    const int row = row_of(*m) + box.first_row;
    if (column > 7 || row > 7 || !(playable & square_bit(make_square(column, row)))) {
        std::string message = "'";  // built in steps: GCC 12 warns (-Wrestrict) on "'" + std::string
        message += text;
        message += "' is not a square of the ";
        message += variant_info(variant).name;
        message += " board";
        return make_error(message);
    }
    return static_cast<Move>(make_square(column, row));
}

std::string local_move_to_string(Move m, Variant variant) {
    if (m >= 64) return move_to_string(m);
    const Box box = box_of(variant_info(variant).playable);
    return move_to_string(static_cast<Move>(make_square(column_of(m) - box.first_column, row_of(m) - box.first_row)));
}

Expected<Position> parse_compact_board(std::string_view text, Variant variant) {
    std::string compact;
    for (const char c : text) {
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    }
    const auto& info = variant_info(variant);
    const auto n = static_cast<std::size_t>(popcount(info.playable));
    if (compact.size() != n + 1) {
        return make_error("bad " + std::string(info.name) + " board: expected " + std::to_string(n) +
                          " squares and the side to move (" + std::to_string(n + 1) +
                          " characters, blanks aside), got " + std::to_string(compact.size()) + " characters");
    }
    std::string full(64, '-');
    std::size_t i = 0;
    for (const int sq : squares(info.playable)) full[static_cast<std::size_t>(sq)] = compact[i++];
    full += compact.back();
    return parse_board(full, variant);
}

std::string to_compact_board(const Position& pos, Variant variant) {
    std::string s;
    for (const int sq : squares(variant_info(variant).playable)) {
        s += (pos.black() & square_bit(sq)) ? 'X' : (pos.white() & square_bit(sq)) ? 'O' : '-';
    }
    s += pos.side == Color::Black ? " X" : " O";
    return s;
}

Expected<ObfEntry> parse_variant_obf_line(std::string_view line, Variant variant) {
    // The board and the moves on the variant's board (before, the line was rewritten as an 8x8 one: a pass
    // was refused where only squares off the variant's board were legal, and errors named 8x8 squares).
    return parse_obf_line(
        line, [variant](std::string_view board) { return parse_compact_board(board, variant); },
        [variant](std::string_view move) { return parse_local_move(move, variant); },
        popcount(variant_info(variant).playable));
}

Expected<std::vector<ObfEntry>> read_variant_obf_file(const std::string& path, Variant variant) {
    return read_obf_file(path, [variant](std::string_view line) { return parse_variant_obf_line(line, variant); });
}

}  // namespace reversi
