#include "protocol/uci/uci_commands.hpp"

#include "engine/board/notation.hpp"
#include "protocol/text/tokens.hpp"

namespace reversi::uci {

using text::iequals;
using text::parse_integer;
using text::quote;

namespace {

constexpr std::int64_t kMaxTimeMs = 1'000'000'000'000;  // ~31 years: rejects only absurd numbers

// The words of `go` that stand alone.
struct GoFlag {
    const char* key;
    bool GoCommand::*field;
};
constexpr GoFlag kGoFlags[] = {{"infinite", &GoCommand::infinite},
                               {"solve", &GoCommand::solve},
                               {"wld", &GoCommand::wld},
                               {"ponder", &GoCommand::ponder}};

// The words of `go` followed by a number in [min, max]; a clock's negative time (some GUIs send one when a
// flag fell) is read as 0.
struct GoNumber {
    const char* key;
    std::int64_t min;
    std::int64_t max;
    bool clock;
    void (*set)(GoCommand&, std::int64_t);
};
constexpr GoNumber kGoNumbers[] = {
    {"depth", 1, 60, false, [](GoCommand& go, std::int64_t v) { go.depth = static_cast<int>(v); }},
    {"nodes", 1, 1'000'000'000'000'000, false,
     [](GoCommand& go, std::int64_t v) { go.nodes = static_cast<std::uint64_t>(v); }},
    {"movetime", 0, kMaxTimeMs, false, [](GoCommand& go, std::int64_t v) { go.movetime_ms = v; }},
    {"btime", -kMaxTimeMs, kMaxTimeMs, true, [](GoCommand& go, std::int64_t v) { go.black_time_ms = v; }},
    {"wtime", -kMaxTimeMs, kMaxTimeMs, true, [](GoCommand& go, std::int64_t v) { go.white_time_ms = v; }},
    {"binc", -kMaxTimeMs, kMaxTimeMs, true, [](GoCommand& go, std::int64_t v) { go.black_inc_ms = v; }},
    {"winc", -kMaxTimeMs, kMaxTimeMs, true, [](GoCommand& go, std::int64_t v) { go.white_inc_ms = v; }},
    {"movestogo", 1, 1000, false, [](GoCommand& go, std::int64_t v) { go.movestogo = static_cast<int>(v); }},
};

bool is_go_keyword(std::string_view t) {
    for (const auto& f : kGoFlags) {
        if (iequals(t, f.key)) return true;
    }
    for (const auto& n : kGoNumbers) {
        if (iequals(t, n.key)) return true;
    }
    return iequals(t, "searchmoves") || iequals(t, "algo");
}

// The number after tokens[i] for `spec`, stored in `go`; i is left on the number.
Expected<bool> parse_go_number(const GoNumber& spec, const std::vector<std::string_view>& tokens, std::size_t& i,
                               GoCommand& go) {
    const std::string key = spec.key;
    if (i + 1 >= tokens.size()) return make_error("go " + key + ": missing number");
    auto v = parse_integer(tokens[++i], spec.min, spec.max, "go " + key);
    if (!v) return v.error();
    spec.set(go, spec.clock && *v < 0 ? 0 : *v);
    return true;
}

// The moves after tokens[i] (up to the next keyword) into go.search_moves; i is left on the last one.
Expected<bool> parse_search_moves(const std::vector<std::string_view>& tokens, std::size_t& i, GoCommand& go) {
    while (i + 1 < tokens.size() && !is_go_keyword(tokens[i + 1])) {
        auto m = parse_move(tokens[i + 1]);
        if (!m) return make_error("go searchmoves: " + quote(tokens[i + 1]) + " is not a move");
        go.search_moves.push_back(*m);
        ++i;
    }
    if (go.search_moves.empty()) return make_error("go searchmoves: no moves given");
    return true;
}

// One parameter of `go` at tokens[i] (and its arguments, i left on the last one).
Expected<bool> parse_go_parameter(const std::vector<std::string_view>& tokens, std::size_t& i, GoCommand& go) {
    const std::string_view key = tokens[i];
    for (const auto& f : kGoFlags) {
        if (iequals(key, f.key)) {
            go.*f.field = true;
            return true;
        }
    }
    for (const auto& n : kGoNumbers) {
        if (iequals(key, n.key)) return parse_go_number(n, tokens, i, go);
    }
    if (iequals(key, "searchmoves")) return parse_search_moves(tokens, i, go);
    if (!iequals(key, "algo")) return make_error("go: unknown parameter " + quote(key));
    if (i + 1 >= tokens.size()) return make_error("go algo: missing algorithm name");
    auto a = parse_algorithm(tokens[++i]);
    if (!a) return make_error("go algo: " + quote(tokens[i]) + ": " + a.error().message);
    go.algorithm = *a;
    return true;
}

}  // namespace

Expected<GoCommand> parse_go(const std::vector<std::string_view>& tokens) {
    GoCommand go;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (auto done = parse_go_parameter(tokens, i, go); !done) return done.error();
    }
    return go;
}

Expected<OptionAssignment> parse_setoption(const std::vector<std::string_view>& tokens) {
    if (tokens.empty() || !iequals(tokens[0], "name")) {
        return make_error("setoption: expected 'name <option> value <value>'");
    }
    OptionAssignment a;
    std::size_t i = 1;
    for (; i < tokens.size() && !iequals(tokens[i], "value"); ++i) {
        if (!a.name.empty()) a.name += ' ';
        a.name += tokens[i];
    }
    if (a.name.empty()) return make_error("setoption: missing option name");
    if (i < tokens.size()) {
        for (++i; i < tokens.size(); ++i) {
            if (!a.value.empty()) a.value += ' ';
            a.value += tokens[i];
        }
        if (a.value.empty()) return make_error("setoption " + a.name + ": missing value after 'value'");
    }
    return a;
}

namespace {

// Splits a moves token into moves: one move ("f5", "pass") or a concatenated transcript ("f5d6c3", as XOT
// lists and Othello players write it; "pass" may appear inside). The pieces are returned unparsed.
std::vector<std::string_view> transcript_pieces(std::string_view token) {
    if (parse_move(token)) return {token};
    std::vector<std::string_view> pieces;
    while (!token.empty()) {
        const std::size_t n =
            (token.size() >= 4 && iequals(token.substr(0, 4), "pass")) ? 4 : std::min<std::size_t>(2, token.size());
        pieces.push_back(token.substr(0, n));
        token.remove_prefix(n);
    }
    return pieces;
}

// Plays the tokens from `first` on (each a move or a transcript of moves) from setup.start. Errors name the
// bad move and its number (counted over all the moves).
Expected<PositionSetup> play_move_tokens(PositionSetup setup, const std::vector<std::string_view>& tokens,
                                         std::size_t first) {
    setup.current = setup.start;
    std::size_t number = 0;
    for (std::size_t i = first; i < tokens.size(); ++i) {
        const auto pieces = transcript_pieces(tokens[i]);
        const std::string where = pieces.size() > 1 ? " (in " + quote(tokens[i]) + ")" : "";
        for (const auto piece : pieces) {
            ++number;
            auto m = parse_move(piece);
            if (!m) {
                return make_error("position: move " + std::to_string(number) + " " + quote(piece) + where +
                                  " is not a move (a square a1..h8 or pass)");
            }
            auto next = apply_move(setup.current, *m);
            if (!next) {
                return make_error("position: move " + std::to_string(number) + " " + quote(piece) + where + ": " +
                                  next.error().message);
            }
            setup.current = *next;
            setup.moves.push_back(*m);
        }
    }
    return setup;
}

// Board tokens from `first` up to "moves" (or the end): returns the position and the index of "moves".
Expected<std::pair<Position, std::size_t>> board_tokens(const std::vector<std::string_view>& tokens, std::size_t first,
                                                        Variant variant) {
    std::string board;
    std::size_t i = first;
    for (; i < tokens.size() && !iequals(tokens[i], "moves"); ++i) {
        board += tokens[i];
        board += ' ';
    }
    if (board.empty()) return make_error("position board: missing the 64 squares and the side to move");
    auto pos = parse_board(board, variant);
    if (!pos) return make_error("position board: " + pos.error().message);
    return std::pair{*pos, i};
}

}  // namespace

Expected<PositionSetup> parse_position(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.size() < 2) return make_error("position: expected startpos, board, variant or obf");
    const std::string_view kind = tokens[1];
    PositionSetup setup;
    std::size_t next = 2;
    if (iequals(kind, "startpos")) {
        setup.start = start_position();
    } else if (iequals(kind, "board")) {
        auto b = board_tokens(tokens, 2, Variant::Standard);
        if (!b) return b.error();
        setup.start = b->first;
        next = b->second;
    } else if (iequals(kind, "variant")) {
        if (tokens.size() < 3) return make_error("position variant: missing the variant name");
        auto v = parse_variant(tokens[2]);
        if (!v) return make_error("position variant: " + quote(tokens[2]) + ": " + v.error().message);
        setup.start = start_position(*v);
        next = 3;
        if (next < tokens.size() && iequals(tokens[next], "board")) {
            auto b = board_tokens(tokens, next + 1, *v);
            if (!b) return b.error();
            setup.start = b->first;
            next = b->second;
        }
    } else if (iequals(kind, "obf")) {
        const std::string_view rest = text::rest_after_tokens(line, 2);
        if (rest.empty()) return make_error("position obf: missing the OBF line");
        auto entry = parse_obf_line(rest);
        if (!entry) return make_error("position obf: " + entry.error().message);
        setup.start = entry->position;
        setup.current = setup.start;
        return setup;
    } else {
        return make_error("position: unknown kind " + quote(kind) + " (expected startpos, board, variant or obf)");
    }
    if (next < tokens.size()) {
        if (!iequals(tokens[next], "moves")) {
            return make_error("position: unexpected " + quote(tokens[next]) + " (expected moves)");
        }
        ++next;
    }
    return play_move_tokens(setup, tokens, next);
}

}  // namespace reversi::uci
