#include "protocol/session/session.hpp"

#include <spdlog/spdlog.h>

#include "protocol/text/tokens.hpp"

namespace reversi::session {

Expected<std::unique_ptr<Session>> Session::create(const SessionConfig& config, LineSink sink) {
    auto ctx = EngineContext::create(config, std::move(sink));
    if (!ctx) return ctx.error();
    return std::unique_ptr<Session>(new Session(std::move(*ctx)));
}

Session::Session(std::unique_ptr<EngineContext> ctx) : ctx_(std::move(ctx)), uci_(*ctx_) {}

uci::Status Session::handle_line(std::string_view line) {
    if (nboard_) return nboard_->handle(line);
    const auto tokens = text::split_tokens(line);
    if (tokens.empty()) return uci::Status::Continue;
    if (first_command_) {
        first_command_ = false;
        if (text::iequals(tokens[0], "nboard")) {
            if (tokens.size() != 2) {
                ctx_->send("status error: nboard: expected a version, e.g. nboard 2; staying in UCI mode");
                return uci::Status::Continue;
            }
            auto version = text::parse_integer(tokens[1], 1, 1000, "nboard version");
            if (!version) {
                ctx_->send("status error: " + version.error().message + "; staying in UCI mode");
                return uci::Status::Continue;
            }
            spdlog::debug("session switches to NBoard protocol version {}", *version);
            nboard_ = std::make_unique<nboard::NboardFrontend>(*ctx_);
            return uci::Status::Continue;
        }
    }
    return uci_.handle(line);
}

}  // namespace reversi::session
