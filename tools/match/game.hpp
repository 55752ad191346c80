#pragma once
// One game between two engines. The runner owns the rules: every answer is checked against its own
// board (engine/board), a forced pass is played by the runner itself without asking the engine (so a
// `pass` answer is only legal in a position that has no move, which the runner never sends), the game
// ends when neither side can move, and it is scored by the World Othello Federation rule (empty
// squares to the winner). An engine fault (illegal move, crash, hang, time forfeit, failed restart)
// loses the game at once; the faulty engine is killed and restarted before its next game.
#include <array>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "engine/data/openings.hpp"
#include "tools/match/engine_player.hpp"

namespace reversi::match {

struct MoveRecord {
    Move move = kNoMove;
    std::optional<double> eval;  // discs, mover's point of view
    double seconds = 0;
    bool forced_pass = false;  // played by the runner
};

// Game `index` of the match: pair index/2, with colours swapped between the two games of a pair.
struct GameSpec {
    int index = 0;
    int opening_index = 0;
    data::Opening opening;
    Variant variant = Variant::Standard;
    int black = 0;  // engine number (0 = first engine)
};

struct GameResult {
    int index = 0;
    int opening_index = 0;
    int black = 0;
    std::string opening_text;
    Position start;
    std::vector<Move> opening_moves;
    std::vector<MoveRecord> moves;  // after the opening
    int black_discs = 0;            // final disc difference for black (WOF rule); 0 after a forfeit
    Fault fault = Fault::None;      // Fault::None: the game ended on the board
    int faulty_engine = -1;         // the engine that lost by fault
    std::string detail;             // the reason in words

    [[nodiscard]] int white() const noexcept { return 1 - black; }
    // Points of engine `e`: 1 win, 0.5 draw, 0 loss.
    [[nodiscard]] double points(int e) const noexcept {
        if (fault != Fault::None) return e == faulty_engine ? 0.0 : 1.0;
        const int d = e == black ? black_discs : -black_discs;
        return d > 0 ? 1.0 : d < 0 ? 0.0 : 0.5;
    }
    // Disc margin of engine `e` (only meaningful when fault == None).
    [[nodiscard]] int margin(int e) const noexcept { return e == black ? black_discs : -black_discs; }
};

struct GameSettings {
    std::array<TimeControl, 2> tc;  // per engine
    PlayerTimeouts timeouts;
};

// Plays one game. `players` are indexed by engine number; they are started when not running.
// Returns nullopt when `abort` became true (the game is not recorded; both engines are killed).
[[nodiscard]] std::optional<GameResult> play_game(const GameSpec& spec, std::array<EnginePlayer*, 2> players,
                                                  const GameSettings& settings, const std::atomic<bool>& abort);

}  // namespace reversi::match
