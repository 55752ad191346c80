#pragma once
// What the web API knows of a game: a start position and the moves played from it, checked and
// normalised by the engine's rules (forced passes made explicit), and its JSON forms: the `state`
// message the board is drawn from, and the `export` message (GGF and transcript). Stateless: every
// request carries its whole game (docs/web.md).
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"
#include "protocol/web/json.hpp"

namespace reversi::web {

struct WebGame {
    Position start;
    std::vector<Move> moves;  // passes included
    Position current;
    Position before_last;  // the position before the last move that was not a pass (= start if none)
    Move last = kNoMove;   // the last move played (a pass included), kNoMove before the first
};

// The game of a `position` or `export` request: `board` (optional board string), `moves` (array of
// moves) or `transcript` (string). A move of the side that did not have to pass after a forced pass gets
// the pass inserted; any other illegal move is an error naming it and its number.
[[nodiscard]] Expected<WebGame> game_from_request(const JsonValue& request);

// The text protocol's `position` line for the game (board string and moves, passes included).
[[nodiscard]] std::string position_line(const WebGame& game);

// The `state` message.
[[nodiscard]] std::string state_message(const WebGame& game);

// The `export` message: GGF (with the players' names and the per-move scores when given) and transcript.
struct ExportNames {
    std::string black = "black";
    std::string white = "white";
};
[[nodiscard]] std::string export_message(const WebGame& game, const ExportNames& names,
                                         const std::vector<std::optional<double>>& scores);

// The squares of a bitboard, a1 first, as lower-case names.
[[nodiscard]] std::vector<std::string> square_names(Bitboard squares);

}  // namespace reversi::web
