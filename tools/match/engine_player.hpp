#pragma once
// An engine as the game loop sees it: start it (handshake), tell it a new game starts, ask it for a move
// in a position, stop it. The protocol adapters (UCI-style, NBoard) implement this over an
// EngineConnection; they only move text, and the game loop judges the answers with its own board.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/board/variant.hpp"
#include "tools/match/engine_connection.hpp"
#include "tools/match/time_control.hpp"

namespace reversi::match {

enum class Protocol { Uci, NBoard };

// Everything the runner knows about one engine of the match (from --engine name=... cmd=... ...).
struct EngineConfig {
    std::string name;
    Protocol protocol = Protocol::Uci;
    EngineEndpoint endpoint;
    std::vector<std::pair<std::string, std::string>> options;  // option.Name=Value, in order
    TimeControl tc;
    int threads = 1;      // from option.Threads, for the default concurrency
    bool ponder = false;  // ponder=true: UCI pondering, as a GUI does it (UciPlayer)
};

// Why an engine lost a game other than on the board.
enum class Fault {
    None,
    Illegal,      // an illegal move (a square, or pass, that the rules refuse)
    Garbage,      // an unreadable answer (not a move, or an overlong line)
    Crash,        // the process exited / the socket closed
    Hang,         // no reply within the timeout (the engine is killed)
    TimeForfeit,  // the reply came after the flag fell (plus margin)
    StartFailed,  // the engine could not be (re)started or failed its handshake
};

[[nodiscard]] inline const char* fault_name(Fault f) noexcept {
    switch (f) {
        case Fault::None:
            return "normal";
        case Fault::Illegal:
            return "illegal";
        case Fault::Garbage:
            return "garbage";
        case Fault::Crash:
            return "crash";
        case Fault::Hang:
            return "hang";
        case Fault::TimeForfeit:
            return "time";
        case Fault::StartFailed:
            return "start";
    }
    return "?";
}

struct EngineFailure {
    Fault fault = Fault::None;
    std::string detail;
};

// What the engine is asked: the game from its start position, and the clocks.
struct MoveRequest {
    Variant variant = Variant::Standard;
    Position start;                                // where the game began (before the opening moves)
    std::vector<Move> moves;                       // every move so far, passes included
    Position current;                              // start + moves
    std::optional<Millis> black_time, white_time;  // clock games: remaining times
    Millis black_increment{0}, white_increment{0};
};

struct MoveAnswer {
    std::string move_text;       // as the engine wrote it; validated by the game loop
    std::optional<double> eval;  // discs, side to move, when the engine said it
    std::optional<int> depth;
    std::string engine_error;  // the last "info string error: ..." the engine sent while thinking
    std::string ponder_text;   // the expected reply (bestmove M ponder R), unchecked; empty when none
};

// Either an answer or a failure.
struct ThinkOutcome {
    std::optional<MoveAnswer> answer;
    EngineFailure failure;
};

class EnginePlayer {
public:
    virtual ~EnginePlayer() = default;
    // Opens the connection and runs the handshake (options included).
    [[nodiscard]] virtual EngineFailure start() = 0;
    [[nodiscard]] virtual EngineFailure new_game() = 0;
    // `deadline`: a reply later than this is a hang (or a time forfeit when `deadline_is_flag`).
    [[nodiscard]] virtual ThinkOutcome think(const MoveRequest& request, SteadyClock::time_point deadline,
                                             bool deadline_is_flag) = 0;
    // Pondering (engines that do it; the others ignore these). After its own move the engine thinks on
    // `expected` (the game after its expected reply, the clocks as they are) until its next turn:
    [[nodiscard]] virtual EngineFailure start_pondering(const MoveRequest& expected) {
        (void)expected;
        return {};
    }
    // Before the clock starts for `request`: when it is not the position pondered, the pondering is
    // stopped and its answer read and discarded; when it is, the next think() continues it (ponderhit).
    [[nodiscard]] virtual EngineFailure prepare_move(const MoveRequest& request) {
        (void)request;
        return {};
    }
    // Stops a pondering search and discards its answer (the game ended); a failure kills the engine.
    virtual void cancel_pondering() {}
    // Ends the engine politely (quit), killing it after a short grace period.
    virtual void stop() = 0;
    // Kills the engine at once (after a fault).
    virtual void kill() = 0;
    [[nodiscard]] virtual bool running() const = 0;
};

struct PlayerTimeouts {
    Millis handshake{10000};                   // uci..uciok, isready..readyok, nboard ping..pong
    Millis hang{60000};                        // a depth or node search with no reply by then hangs
    const std::atomic<bool>* abort = nullptr;  // when it becomes true, waits end at once (interrupted match)
};

[[nodiscard]] std::unique_ptr<EnginePlayer> make_player(const EngineConfig& config, const PlayerTimeouts& timeouts);

}  // namespace reversi::match
