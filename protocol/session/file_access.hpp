#pragma once
// Which files a session may name in its options (EvalFile). A local session (stdin: the user who started
// the engine) may name any path. A network session may only name regular files inside the server's
// --data-dir (the path resolved, symbolic links included, and checked to stay inside it), and none when
// the server has no data directory. For a network session the error for a path that does not resolve into
// the data directory is the same whether or not the path exists, so that a client cannot probe the
// server's files. Reading itself (regular files only, size cap) is eval::read_weights_bytes().
#include <string>

#include "engine/core/expected.hpp"

namespace reversi::session {

struct FileAccess {
    bool remote = false;   // a network client
    std::string data_dir;  // canonical path of --data-dir; empty: none
};

// False when the session may not name files at all (a network session without a data directory).
[[nodiscard]] inline bool may_name_files(const FileAccess& access) noexcept {
    return !access.remote || !access.data_dir.empty();
}

// The path to open for `requested` (relative paths of a network session are taken from the data
// directory), or an error naming `requested` as the client wrote it. May touch the file system (it
// resolves symbolic links): call it off the network thread.
[[nodiscard]] Expected<std::string> resolve_for_reading(const FileAccess& access, const std::string& requested);

// The canonical form of a --data-dir argument; an error when it is not an existing directory.
[[nodiscard]] Expected<std::string> canonical_data_dir(const std::string& dir);

}  // namespace reversi::session
