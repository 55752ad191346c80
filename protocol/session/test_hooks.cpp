#include "protocol/session/test_hooks.hpp"

#include <stdexcept>

#include "protocol/text/tokens.hpp"

namespace reversi::session {

bool run_test_hook(EngineContext& ctx, std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.empty()) return false;
    if (tokens[0] == "test-throw") throw std::runtime_error("test-throw: an injected failure");
    if (tokens[0] == "test-throw-job") {
        ctx.start_job(
            [](const std::atomic<bool>&) { throw std::runtime_error("test-throw-job: an injected failure"); });
        return true;
    }
    return false;
}

}  // namespace reversi::session
