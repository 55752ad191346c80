#pragma once
// What a front end answers after a command line: go on reading, or the session is over (quit).

namespace reversi::session {

enum class Status { Continue, Quit };

}  // namespace reversi::session
