#pragma once
// EnginePlayer for the project's UCI-style protocol (see the protocol section of the README).
#include "tools/match/engine_player.hpp"

namespace reversi::match {

// Maps a failed read to a fault: timeout -> hang (or time forfeit), closed -> crash, overlong -> illegal.
[[nodiscard]] EngineFailure failure_from_read(const ReadResult& r, bool deadline_is_flag,
                                              const std::string& waiting_for, const EngineConnection& conn);

class UciPlayer final : public EnginePlayer {
public:
    UciPlayer(EngineConfig config, PlayerTimeouts timeouts);
    ~UciPlayer() override;

    [[nodiscard]] EngineFailure start() override;
    [[nodiscard]] EngineFailure new_game() override;
    [[nodiscard]] ThinkOutcome think(const MoveRequest& request, SteadyClock::time_point deadline,
                                     bool deadline_is_flag) override;
    // With ponder=true: setoption Ponder at start; `position <expected>` and `go ponder <clocks>` after
    // each own move with an expected reply; then `ponderhit` (the reply came: think() sends it once the
    // clock runs) or `stop` with its bestmove discarded before the normal `position`/`go`.
    [[nodiscard]] EngineFailure start_pondering(const MoveRequest& expected) override;
    [[nodiscard]] EngineFailure prepare_move(const MoveRequest& request) override;
    void cancel_pondering() override;
    void stop() override;
    void kill() override;
    [[nodiscard]] bool running() const override { return conn_ != nullptr; }

    // "position startpos moves f5 d6", "position board <64> X moves ...", "position variant 6x6 moves ...".
    [[nodiscard]] static std::string position_command(const MoveRequest& request);
    [[nodiscard]] std::string go_command(const MoveRequest& request) const;

private:
    [[nodiscard]] EngineFailure wait_for(const std::string& token, Millis timeout);
    // Sends stop and reads up to the bestmove (discarded); the handshake timeout is the limit.
    [[nodiscard]] EngineFailure stop_pondering();
    [[nodiscard]] ThinkOutcome read_answer(SteadyClock::time_point deadline, bool deadline_is_flag);

    EngineConfig config_;
    PlayerTimeouts timeouts_;
    std::unique_ptr<EngineConnection> conn_;
    std::string pondering_;   // the position command of the search that ponders ("": none)
    bool ponderhit_ = false;  // prepare_move found the position pondered: think() sends ponderhit
};

}  // namespace reversi::match
