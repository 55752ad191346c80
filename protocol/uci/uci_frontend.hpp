#pragma once
// The UCI-style front end: one command line in, replies out through the context's sink. Commands that
// change the engine (go, setoption, ucinewgame, perft, bench) first stop a running job and wait for its
// final lines, so that every `go` is answered by exactly one `bestmove`.
#include <chrono>
#include <memory>
#include <string_view>

#include "protocol/session/engine_context.hpp"
#include "protocol/session/status.hpp"
#include "protocol/time/latency_tracker.hpp"
#include "protocol/uci/ponder_control.hpp"

namespace reversi::uci {

class UciFrontend {
public:
    explicit UciFrontend(session::EngineContext& ctx) : ctx_(ctx) {}
    session::Status handle(std::string_view line);
    // A go ponder's search runs and awaits its ponderhit or stop.
    [[nodiscard]] bool pondering() const { return ponder_ && ctx_.busy() && ponder_->awaits_answer(); }

private:
    void cmd_uci();
    void cmd_setoption(std::string_view line);
    void cmd_position(std::string_view line);
    void cmd_go(std::string_view line, std::chrono::steady_clock::time_point received);
    void cmd_ponderhit(std::chrono::steady_clock::time_point received);
    void cmd_display();
    void cmd_perft(std::string_view line);
    void cmd_bench(std::string_view line);
    void cmd_help();

    session::EngineContext& ctx_;
    // The session's record of late answers (shared with the running search job, which records its own).
    std::shared_ptr<timing::LatencyTracker> latency_ = std::make_shared<timing::LatencyTracker>();
    // The last go's pondering control (nullptr when it was no go ponder), for ponderhit.
    std::shared_ptr<PonderControl> ponder_;
};

// The reply to `help`: one line per command (also in the README's protocol section).
[[nodiscard]] const char* const* help_lines() noexcept;

}  // namespace reversi::uci
