#include "protocol/session/test_hooks.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "protocol/text/tokens.hpp"

namespace reversi::session {

bool run_test_hook(EngineContext& ctx, std::string_view line) {
    const auto tokens = text::split_tokens(line);
    if (tokens.empty()) return false;
    if (tokens[0] == "test-throw") throw std::runtime_error("test-throw: an injected failure");
    if (tokens[0] == "test-slow-job") {
        // Stands for a job that cannot be stopped (a Hash resize, a table clear, a weights file read).
        const auto ms = text::parse_integer(tokens.size() > 1 ? tokens[1] : "1000", 0, 60000, "test-slow-job");
        if (!ms) throw std::runtime_error(ms.error().message);
        ctx.start_exclusive_job([ms = *ms](const std::atomic<bool>&) {
            std::this_thread::sleep_for(std::chrono::milliseconds(ms));  // deaf to its stop flag
        });
        ctx.send("info string test-slow-job: started");
        return true;
    }
    if (tokens[0] == "test-no-threads") {
        const auto n = text::parse_integer(tokens.size() > 1 ? tokens[1] : "1", 0, 1000, "test-no-threads");
        if (!n) throw std::runtime_error(n.error().message);
        ctx.fail_next_job_starts(static_cast<int>(*n));
        return true;
    }
    if (tokens[0] == "test-throw-job") {
        ctx.start_job(
            [](const std::atomic<bool>&) { throw std::runtime_error("test-throw-job: an injected failure"); });
        return true;
    }
    return false;
}

}  // namespace reversi::session
