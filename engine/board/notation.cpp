#include "engine/board/notation.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "engine/core/regular_file.hpp"

namespace reversi {

namespace {

std::string lowercase(std::string_view text) {
    std::string s(text);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

std::string printable(std::string_view text) {
    std::string out;
    for (unsigned char c : text.substr(0, 40)) {
        out += (c >= 32 && c < 127) ? static_cast<char>(c) : '?';
    }
    if (text.size() > 40) out += "...";
    return out;
}

bool is_pass_token(const std::string& lower) {
    return lower == "pass" || lower == "pa" || lower == "ps" || lower == "@@" || lower == "@@@@" || lower == "--";
}

enum class Cell { Black, White, Empty, Invalid };

Cell cell_of(char c) {
    switch (c) {
        case 'X':
        case 'x':
        case '*':
        case 'B':
        case 'b':
            return Cell::Black;
        case 'O':
        case 'o':
        case 'W':
        case 'w':
            return Cell::White;
        case '-':
        case '.':
            return Cell::Empty;
        default:
            return Cell::Invalid;
    }
}

const char* color_name(Color c) { return c == Color::Black ? "black" : "white"; }

}  // namespace

Expected<Move> parse_move(std::string_view text) {
    const std::string lower = lowercase(trim(text));
    if (is_pass_token(lower)) {
        return kPass;
    }
    if (lower.size() == 2 && lower[0] >= 'a' && lower[0] <= 'h' && lower[1] >= '1' && lower[1] <= '8') {
        return static_cast<Move>(make_square(lower[0] - 'a', lower[1] - '1'));
    }
    return make_error("bad move '" + printable(text) + "' (expected a square a1..h8 or pass)");
}

std::string move_to_string(Move m) {
    if (m == kPass) return "pass";
    if (m >= kPass) return "none";
    return std::string{static_cast<char>('a' + column_of(m)), static_cast<char>('1' + row_of(m))};
}

Expected<Position> parse_board(std::string_view text, Variant variant) {
    std::string squares;
    for (char c : text) {
        if (!std::isspace(static_cast<unsigned char>(c))) squares += c;
    }
    if (squares.size() != 65) {
        return make_error("bad board: expected 64 squares and the side to move, got " + std::to_string(squares.size()) +
                          " characters");
    }
    const auto& info = variant_info(variant);
    Position pos{0, 0, info.playable, Color::Black, info.rule};
    Bitboard black = 0, white = 0;
    for (int sq = 0; sq < 64; ++sq) {
        const Cell cell = cell_of(squares[sq]);
        if (cell == Cell::Invalid) {
            return make_error(std::string("bad board: unknown character '") + printable(squares.substr(sq, 1)) +
                              "' at " + move_to_string(static_cast<Move>(sq)));
        }
        if (cell != Cell::Empty && !(info.playable & square_bit(sq))) {
            return make_error("bad board: disc on " + move_to_string(static_cast<Move>(sq)) + ", outside the " +
                              std::string(info.name) + " board");
        }
        if (cell == Cell::Black) black |= square_bit(sq);
        if (cell == Cell::White) white |= square_bit(sq);
    }
    const Cell side = cell_of(squares[64]);
    if (side != Cell::Black && side != Cell::White) {
        return make_error("bad board: side to move '" + printable(squares.substr(64)) + "' (expected X or O)");
    }
    pos.side = side == Cell::Black ? Color::Black : Color::White;
    pos.player = pos.side == Color::Black ? black : white;
    pos.opponent = pos.side == Color::Black ? white : black;
    return pos;
}

std::string to_board_string(const Position& pos) {
    std::string s(64, '-');
    for (int sq : squares(pos.black())) s[sq] = 'X';
    for (int sq : squares(pos.white())) s[sq] = 'O';
    s += pos.side == Color::Black ? " X" : " O";
    return s;
}

Expected<std::vector<Move>> parse_transcript(std::string_view text) {
    std::vector<Move> moves;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';') {
            ++i;
            continue;
        }
        // Longest pass tokens first, then a two-character square or pass.
        const std::string rest = lowercase(text.substr(i, 4));
        if (rest.starts_with("pass") || rest.starts_with("@@@@")) {
            moves.push_back(kPass);
            i += 4;
            continue;
        }
        auto move = parse_move(text.substr(i, 2));
        if (!move) {
            return make_error("bad transcript: move " + std::to_string(moves.size() + 1) + ": " + move.error().message);
        }
        moves.push_back(*move);
        i += 2;
    }
    return moves;
}

Expected<Position> apply_move(const Position& pos, Move m) {
    const char* who = color_name(pos.side);
    if (pos.is_over()) {
        return make_error("illegal move " + move_to_string(m) + ": the game is over");
    }
    if (m == kPass) {
        if (pos.moves() != 0) {
            return make_error(std::string("illegal move pass: ") + who + " has a legal move");
        }
        return pos.pass();
    }
    if (m >= 64) {
        return make_error("illegal move: not a square");
    }
    if (!(pos.playable & square_bit(m))) {
        return make_error("illegal move " + move_to_string(m) + ": the square is not on the " +
                          std::string(variant_info(variant_of(pos)).name) + " board");
    }
    if ((pos.player | pos.opponent) & square_bit(m)) {
        return make_error("illegal move " + move_to_string(m) + ": the square is occupied");
    }
    if (!(pos.moves() & square_bit(m))) {
        return make_error("illegal move " + move_to_string(m) + ": it flips no disc" +
                          (pos.must_pass() ? std::string(" (") + who + " must pass)" : std::string()));
    }
    return pos.play(m);
}

Expected<Position> play_moves(const Position& start, const std::vector<Move>& moves) {
    Position pos = start;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        auto next = apply_move(pos, moves[i]);
        if (!next) {
            return make_error("move " + std::to_string(i + 1) + " (" + move_to_string(moves[i]) +
                              "): " + next.error().message);
        }
        pos = *next;
    }
    return pos;
}

Expected<Position> play_transcript(const Position& start, std::string_view text) {
    auto moves = parse_transcript(text);
    if (!moves) return moves.error();
    return play_moves(start, *moves);
}

std::string to_transcript(const std::vector<Move>& moves) {
    std::string s;
    for (Move m : moves) s += m == kPass ? "--" : move_to_string(m);
    return s;
}

std::optional<int> ObfEntry::best_score() const {
    if (score) return score;
    std::optional<int> best;
    for (const auto& [move, value] : move_scores) {
        if (!best || value > *best) best = value;
    }
    return best;
}

Expected<ObfEntry> parse_obf_line(std::string_view line) {
    return parse_obf_line(
        line, [](std::string_view board) { return parse_board(board); },
        [](std::string_view move) { return parse_move(move); }, 64);
}

namespace {

// One "move:score" or bare "score" field of an OBF line, added to `entry`; false at Edax's end marker.
Expected<bool> add_obf_score(std::string_view field, ObfEntry& entry, const ObfMoveReader& read_move, int max_score) {
    const auto colon = field.find(':');
    const std::string_view number = colon == std::string_view::npos ? field : trim(field.substr(colon + 1));
    int value = 0;
    std::istringstream in{std::string(number)};
    if (!(in >> value) || !in.eof() || value < -127 || value > 127) {
        return make_error("bad OBF line: bad score in '" + printable(field) + "'");
    }
    const auto beyond = [&] {
        return make_error("bad OBF line: score in '" + printable(field) + "' is beyond " + std::to_string(-max_score) +
                          ".." + std::to_string(max_score));
    };
    if (colon == std::string_view::npos) {
        if (value < -max_score || value > max_score) return beyond();
        entry.score = value;
        return true;
    }
    auto move = read_move(field.substr(0, colon));
    if (!move) return make_error("bad OBF line: " + move.error().message);
    if (*move == kPass && value == -127) return false;  // Edax's end-of-list marker "--:-127"
    if (value < -max_score || value > max_score) return beyond();
    const bool legal = *move == kPass ? entry.position.must_pass()
                                      : *move < kPass && (entry.position.moves() & square_bit(*move)) != 0;
    if (!legal) return make_error("bad OBF line: '" + printable(field) + "' scores a move that is not legal here");
    for (const auto& [scored, earlier] : entry.move_scores) {
        if (scored == *move && earlier != value)
            return make_error("bad OBF line: '" + printable(field) + "' scores a move already scored " +
                              std::to_string(earlier));
    }
    entry.move_scores.emplace_back(*move, value);
    return true;
}

}  // namespace

Expected<ObfEntry> parse_obf_line(std::string_view line, const ObfBoardReader& read_board,
                                  const ObfMoveReader& read_move, int max_score) {
    ObfEntry entry;
    if (const auto pct = line.find('%'); pct != std::string_view::npos) {
        entry.comment = std::string(trim(line.substr(pct + 1)));
        line = line.substr(0, pct);
    }
    std::vector<std::string_view> fields;
    while (!line.empty()) {
        const auto semi = line.find(';');
        fields.push_back(trim(line.substr(0, semi)));
        if (semi == std::string_view::npos) break;
        line.remove_prefix(semi + 1);
    }
    while (!fields.empty() && fields.back().empty()) fields.pop_back();
    if (fields.empty()) {
        return make_error("bad OBF line: no board");
    }
    auto pos = read_board(fields[0]);
    if (!pos) return make_error("bad OBF line: " + pos.error().message);
    entry.position = *pos;
    for (std::size_t i = 1; i < fields.size(); ++i) {
        if (fields[i].empty()) continue;  // "board; ; c2:3"
        auto added = add_obf_score(fields[i], entry, read_move, max_score);
        if (!added) return added.error();
        if (!*added) break;
    }
    return entry;
}

Expected<std::vector<ObfEntry>> read_obf_file(const std::string& path) {
    return read_obf_file(path, [](std::string_view line) { return parse_obf_line(line); });
}

Expected<std::vector<ObfEntry>> read_obf_file(const std::string& path, const ObfLineReader& read_line) {
    if (exists_but_not_regular(path)) return make_error("OBF file '" + path + "' is not a regular file");
    std::ifstream in(path);
    if (!in) {
        return make_error("cannot open OBF file '" + path + "'");
    }
    std::vector<ObfEntry> entries;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        const std::string_view body = trim(std::string_view(line).substr(0, line.find('%')));
        if (body.empty()) continue;
        auto entry = read_line(line);
        if (!entry) {
            return make_error(path + ":" + std::to_string(number) + ": " + entry.error().message);
        }
        entries.push_back(std::move(*entry));
    }
    return entries;
}

std::string render_board(const Position& pos) {
    std::ostringstream out;
    const Bitboard moves = pos.moves();
    out << "  a b c d e f g h\n";
    for (int r = 0; r < 8; ++r) {
        out << r + 1;
        for (int c = 0; c < 8; ++c) {
            const Bitboard bit = square_bit(make_square(c, r));
            char ch = ' ';
            if (pos.black() & bit)
                ch = '*';
            else if (pos.white() & bit)
                ch = 'O';
            else if (moves & bit)
                ch = '.';
            else if (pos.playable & bit)
                ch = '-';
            out << ' ' << ch;
        }
        out << ' ' << r + 1 << '\n';
    }
    out << "  a b c d e f g h\n";
    out << "black " << popcount(pos.black()) << ", white " << popcount(pos.white()) << ", "
        << (pos.side == Color::Black ? "black" : "white") << " to move";
    if (pos.is_over())
        out << " (game over, score " << pos.final_score() << ")";
    else if (pos.must_pass())
        out << " (must pass)";
    out << '\n';
    return out.str();
}

}  // namespace reversi
