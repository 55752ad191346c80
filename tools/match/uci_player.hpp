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
    void stop() override;
    void kill() override;
    [[nodiscard]] bool running() const override { return conn_ != nullptr; }

    // "position startpos moves f5 d6", "position board <64> X moves ...", "position variant 6x6 moves ...".
    [[nodiscard]] static std::string position_command(const MoveRequest& request);
    [[nodiscard]] std::string go_command(const MoveRequest& request) const;

private:
    [[nodiscard]] EngineFailure wait_for(const std::string& token, Millis timeout);

    EngineConfig config_;
    PlayerTimeouts timeouts_;
    std::unique_ptr<EngineConnection> conn_;
};

}  // namespace reversi::match
