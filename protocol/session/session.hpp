#pragma once
// One protocol session, independent of the transport: lines in (handle_line, from one reader thread),
// lines out through the sink. It speaks the UCI-style protocol, or NBoard when the first command is
// `nboard <version>`.
#include <memory>
#include <string_view>

#include "protocol/nboard/nboard_frontend.hpp"
#include "protocol/session/engine_context.hpp"
#include "protocol/uci/uci_frontend.hpp"

namespace reversi::session {

class Session {
public:
    [[nodiscard]] static Expected<std::unique_ptr<Session>> create(const SessionConfig& config, LineSink sink);
    ~Session() = default;

    // Handles one line (without its newline). Quit: the session is over (its job has ended).
    uci::Status handle_line(std::string_view line);
    // Stops the running job and waits for it: its final lines (bestmove) have been sent on return.
    void shutdown() { ctx_->stop_and_wait(); }
    void stop_job() noexcept { ctx_->stop_job(); }
    [[nodiscard]] bool busy() const noexcept { return ctx_->busy(); }
    [[nodiscard]] bool nboard_mode() const noexcept { return nboard_ != nullptr; }

private:
    explicit Session(std::unique_ptr<EngineContext> ctx);

    std::unique_ptr<EngineContext> ctx_;
    uci::UciFrontend uci_;
    std::unique_ptr<nboard::NboardFrontend> nboard_;
    bool first_command_ = true;
};

}  // namespace reversi::session
