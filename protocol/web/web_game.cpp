#include "protocol/web/web_game.hpp"

#include <cmath>
#include <cstdio>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"

namespace reversi::web {

namespace {

Expected<std::vector<Move>> requested_moves(const JsonValue& request) {
    std::vector<Move> moves;
    if (const JsonValue* transcript = request.find("transcript")) {
        if (request.find("moves")) return make_error("give moves or transcript, not both");
        if (transcript->kind != JsonValue::Kind::String) return make_error("transcript must be a string");
        return parse_transcript(transcript->string);
    }
    const JsonValue* list = request.find("moves");
    if (!list) return moves;
    if (list->kind != JsonValue::Kind::Array) return make_error("moves must be an array of moves");
    if (list->array.size() > 200) return make_error("more than 200 moves");
    for (const JsonValue& m : list->array) {
        if (m.kind != JsonValue::Kind::String) return make_error("moves must be an array of strings");
        auto move = parse_move(m.string);
        if (!move) return move.error();
        moves.push_back(*move);
    }
    return moves;
}

Expected<Position> requested_start(const JsonValue& request) {
    const JsonValue* board = request.find("board");
    if (!board || board->kind == JsonValue::Kind::Null) return start_position();
    if (board->kind != JsonValue::Kind::String) return make_error("board must be a board string");
    auto pos = parse_board(board->string);
    if (!pos) return make_error("board: " + pos.error().message);
    return *pos;
}

std::string color_name(Color c) { return c == Color::Black ? "black" : "white"; }

}  // namespace

std::vector<std::string> square_names(Bitboard squares) {
    std::vector<std::string> names;
    for (int sq = 0; sq < 64; ++sq) {
        if (squares & square_bit(sq)) names.push_back(move_to_string(static_cast<Move>(sq)));
    }
    return names;
}

Expected<WebGame> game_from_request(const JsonValue& request) {
    auto start = requested_start(request);
    if (!start) return start.error();
    auto moves = requested_moves(request);
    if (!moves) return moves.error();
    WebGame game{*start, {}, *start, *start, kNoMove};
    for (std::size_t i = 0; i < moves->size(); ++i) {
        const Move m = (*moves)[i];
        if (m != kPass && game.current.must_pass()) {  // a forced pass left out
            game.moves.push_back(kPass);
            game.current = game.current.pass();
        }
        auto next = apply_move(game.current, m);
        if (!next) return make_error("move " + std::to_string(i + 1) + ": " + next.error().message);
        if (m != kPass) game.before_last = game.current;
        game.moves.push_back(m);
        game.current = *next;
        game.last = m;
    }
    return game;
}

std::string position_line(const WebGame& game) {
    std::string line = "position board " + to_board_string(game.start);
    if (!game.moves.empty()) line += " moves";
    for (Move m : game.moves) {
        line += ' ';
        line += move_to_string(m);
    }
    return line;
}

std::string state_message(const WebGame& game) {
    const Position& pos = game.current;
    std::string board = to_board_string(pos);
    board.resize(64);
    std::vector<std::string> moves;
    for (Move m : game.moves) moves.push_back(move_to_string(m));
    const Position& before = game.before_last;
    const Bitboard flipped = game.last == kNoMove || game.last == kPass
                                 ? 0
                                 : (before.black() & pos.white()) | (before.white() & pos.black());
    JsonObject msg;
    msg.add("type", "state")
        .add("board", board)
        .add("to_move", color_name(pos.side))
        .add("legal", square_names(pos.moves()))
        .add("must_pass", pos.must_pass())
        .add("game_over", pos.is_over())
        .add("black", popcount(pos.black()))
        .add("white", popcount(pos.white()))
        .add("empties", pos.empty_count())
        .add("ply", static_cast<int>(game.moves.size()))
        .add("moves", moves);
    if (game.last == kNoMove) {
        msg.add_null("last");
    } else {
        msg.add("last", move_to_string(game.last));
    }
    msg.add("flipped", square_names(flipped));
    if (pos.is_over()) msg.add("result", pos.side == Color::Black ? pos.final_score() : -pos.final_score());
    return msg.str();
}

namespace {

// GGF escapes ']' and '\' in tag values with a backslash.
std::string ggf_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == ']' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

std::string ggf_board(const Position& pos) {
    std::string board = to_board_string(pos);
    for (char& c : board) {
        if (c == 'X') c = '*';
    }
    return board;
}

std::string ggf_score(double score) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", score);
    return text;
}

}  // namespace

std::string export_message(const WebGame& game, const ExportNames& names,
                           const std::vector<std::optional<double>>& scores) {
    std::string ggf = "(;GM[Othello]PC[reversi-engine web board]PB[" + ggf_escape(names.black) + "]PW[" +
                      ggf_escape(names.white) + "]";
    if (game.current.is_over()) {
        const int black = game.current.side == Color::Black ? game.current.final_score() : -game.current.final_score();
        ggf += "RE[" + std::string(black > 0 ? "+" : "") + std::to_string(black) + "]";
    }
    ggf += "TY[8]BO[8 " + ggf_board(game.start) + "]";
    Position pos = game.start;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        ggf += pos.side == Color::Black ? "B[" : "W[";
        ggf += game.moves[i] == kPass ? "PA" : move_to_string(game.moves[i]);
        if (i < scores.size() && scores[i]) {
            ggf += '/';
            ggf += ggf_score(*scores[i]);
        }
        ggf += "]";
        pos = pos.play_move(game.moves[i]);
    }
    ggf += ";)";
    std::vector<Move> played;
    for (Move m : game.moves) {
        if (m != kPass) played.push_back(m);
    }
    return JsonObject().add("type", "export").add("ggf", ggf).add("transcript", to_transcript(played)).str();
}

}  // namespace reversi::web
