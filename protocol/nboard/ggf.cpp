#include "protocol/nboard/ggf.hpp"

#include <cctype>

#include "engine/board/notation.hpp"
#include "protocol/text/tokens.hpp"

namespace reversi::nboard {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

struct Reader {
    std::string_view s;
    std::size_t i = 0;
    void skip_space() {
        while (i < s.size() && is_space(s[i])) ++i;
    }
    bool consume(std::string_view t) {
        skip_space();
        if (s.substr(i, t.size()) != t) return false;
        i += t.size();
        return true;
    }
};

Expected<bool> play_ggf_move(GgfGame& game, bool black, std::string_view value, int number) {
    const std::string tag = std::string(black ? "B[" : "W[") + std::string(value) + "]";
    const std::string where = "GGF move " + std::to_string(number) + " " + text::quote(tag);
    const std::string_view square = value.substr(0, value.find('/'));
    auto move = parse_move(square);
    if (!move) return make_error(where + ": not a move (a square a1..h8 or PA)");
    const Color colour = black ? Color::Black : Color::White;
    if (game.current.side != colour) {
        if (!game.current.must_pass()) {
            return make_error(where + ": " + (black ? "black" : "white") + " moves but " + (black ? "white" : "black") +
                              " is to move");
        }
        game.current = game.current.pass();  // the other side had no move: an implied pass
        game.moves.push_back(kPass);
    }
    auto next = apply_move(game.current, *move);
    if (!next) return make_error(where + ": " + next.error().message);
    game.current = *next;
    game.moves.push_back(*move);
    return true;
}

struct Tag {
    std::string name;   // lower case
    std::string value;  // escapes removed
};

// The tag NAME[value] at the reader (after its spaces).
Expected<Tag> read_tag(Reader& r) {
    const std::string_view text = r.s;
    const std::size_t name_start = r.i;
    while (r.i < text.size() && std::isalpha(static_cast<unsigned char>(text[r.i]))) ++r.i;
    Tag tag;
    tag.name = text::lowercase(text.substr(name_start, r.i - name_start));
    if (tag.name.empty()) {
        return make_error("GGF: unexpected " + text::quote(text.substr(r.i, 10)) + " at offset " + std::to_string(r.i) +
                          " (expected a tag NAME[value] or ';)')");
    }
    if (r.i >= text.size() || text[r.i] != '[') {
        return make_error("GGF: tag " + text::quote(tag.name) + " at offset " + std::to_string(name_start) +
                          " has no [value]");
    }
    ++r.i;
    while (r.i < text.size()) {
        const char c = text[r.i++];
        if (c == '\\' && r.i < text.size()) {
            tag.value += text[r.i++];
        } else if (c == ']') {
            return tag;
        } else {
            tag.value += c;
        }
    }
    return make_error("GGF: the value of tag " + text::quote(tag.name) + " is not closed with ']'");
}

// BO[8 <board> <side>]: the game's start.
Expected<bool> set_board(GgfGame& game, const std::string& value) {
    const auto words = text::split_tokens(value);
    if (words.empty() || words[0] != "8") {
        return make_error("GGF: BO[" + text::quote(value) + "]: only 8x8 boards are supported");
    }
    auto pos = parse_board(text::rest_after_tokens(value, 1));
    if (!pos) return make_error("GGF: BO: " + pos.error().message);
    game.start = *pos;
    game.current = *pos;
    return true;
}

// One tag into the game: the board, a move, the game type, or kept by its upper-case name.
Expected<bool> apply_tag(GgfGame& game, const Tag& tag, bool& have_board, int& move_number) {
    if (tag.name == "bo") {
        if (have_board) return make_error("GGF: a second BO tag");
        auto set = set_board(game, tag.value);
        have_board = set.has_value();
        return set;
    }
    if (tag.name == "b" || tag.name == "w") {
        if (!have_board) return make_error("GGF: a move comes before the board (BO)");
        return play_ggf_move(game, tag.name == "b", tag.value, ++move_number);
    }
    if (tag.name == "gm" && !text::iequals(tag.value, "othello")) {
        return make_error("GGF: GM[" + text::quote(tag.value) + "] is not an Othello game");
    }
    std::string key;
    for (char c : tag.name) key += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    game.tags[key] = tag.value;
    return true;
}

}  // namespace

Expected<GgfGame> parse_ggf(std::string_view text) {
    Reader r{text};
    if (!r.consume("(;")) return make_error("GGF: a game starts with '(;'");
    GgfGame game;
    bool have_board = false;
    int move_number = 0;
    while (true) {
        r.skip_space();
        if (r.i >= text.size()) return make_error("GGF: unterminated game (missing ';)')");
        if (r.consume(";)")) break;
        auto tag = read_tag(r);
        if (!tag) return tag.error();
        if (auto applied = apply_tag(game, *tag, have_board, move_number); !applied) return applied.error();
    }
    if (!have_board) return make_error("GGF: no board (BO tag)");
    return game;
}

}  // namespace reversi::nboard
