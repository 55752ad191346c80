#pragma once
// Test-only commands, enabled by reversi-engine --test-hooks (never by a client): they inject the
// failures that tests/server/hostile_client_test.cpp checks the server survives.
//   test-throw      throws from the command handler (on the reader, or from a posted handler when it
//                   waited behind a search)
//   test-throw-job  starts a job that throws on the job thread
//   test-no-threads N  the session's next N job starts fail as when the system has no thread left
//   test-slow-job MS  starts an exclusive job that sleeps MS ms (at most 60000) deaf to its stop flag, as a
//                   Hash resize or a weights file read is, after "info string test-slow-job: started"
#include <string_view>

#include "protocol/session/engine_context.hpp"

namespace reversi::session {

// True when `line` was a test command (and has been carried out).
bool run_test_hook(EngineContext& ctx, std::string_view line);

}  // namespace reversi::session
