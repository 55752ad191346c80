#pragma once
// EnginePlayer for the NBoard protocol (Othello GUIs' protocol, spoken by Edax -nboard, Ntest, ...):
//   nboard 2, set depth N, ping N -> pong N (handshake and sync), set game <GGF>, go -> === move[/eval[/time]]
// NBoard has only a depth limit, so NBoard engines play with depth=N (a clock or movetime of the
// runner still applies as a deadline). The whole game is sent with `set game` before every `go`.
#include "tools/match/engine_player.hpp"

namespace reversi::match {

class NBoardPlayer final : public EnginePlayer {
public:
    NBoardPlayer(EngineConfig config, PlayerTimeouts timeouts);
    ~NBoardPlayer() override;

    [[nodiscard]] EngineFailure start() override;
    [[nodiscard]] EngineFailure new_game() override;
    [[nodiscard]] ThinkOutcome think(const MoveRequest& request, SteadyClock::time_point deadline,
                                     bool deadline_is_flag) override;
    void stop() override;
    void kill() override;
    [[nodiscard]] bool running() const override { return conn_ != nullptr; }

    // (;GM[Othello]PC[reversi-match]...TY[8]BO[8 <board> <side>]B[F5]W[D6]...;) with * black, O white.
    [[nodiscard]] static std::string game_to_ggf(const MoveRequest& request);

private:
    [[nodiscard]] EngineFailure ping(Millis timeout);

    EngineConfig config_;
    PlayerTimeouts timeouts_;
    std::unique_ptr<EngineConnection> conn_;
    int ping_counter_ = 0;
};

}  // namespace reversi::match
