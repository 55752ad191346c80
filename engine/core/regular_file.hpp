#pragma once
// Files are read only when they are regular files: a directory reads as an empty file, and a device or a
// FIFO (/dev/zero, a pipe that never ends) as an endless one, which a reader would hold in memory or loop
// on. A path that does not exist passes: the reader's own open reports it.
#include <filesystem>
#include <string>
#include <system_error>

namespace reversi {

// True when `path` exists and is not a regular file (symbolic links followed).
[[nodiscard]] inline bool exists_but_not_regular(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    return !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
}

}  // namespace reversi
