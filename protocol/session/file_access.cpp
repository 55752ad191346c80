#include "protocol/session/file_access.hpp"

#include <filesystem>
#include <system_error>

namespace reversi::session {

namespace fs = std::filesystem;

namespace {

bool inside(const std::string& path, const std::string& dir) {
    if (dir == "/") return path.size() > 1 && path.front() == '/';
    return path.size() > dir.size() + 1 && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

}  // namespace

Expected<std::string> resolve_for_reading(const FileAccess& access, const std::string& requested) {
    if (!access.remote) return requested;
    if (access.data_dir.empty()) {
        return make_error("weights " + requested +
                          ": files cannot be named over the network (the server was "
                          "started without --data-dir)");
    }
    fs::path path(requested);
    if (path.is_relative()) path = fs::path(access.data_dir) / path;
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(path, ec);
    // One message for every path that does not resolve into the directory, existing or not.
    if (ec || !inside(resolved.string(), access.data_dir)) {
        return make_error("weights " + requested + ": no such file in the server's data directory");
    }
    return resolved.string();
}

Expected<std::string> canonical_data_dir(const std::string& dir) {
    std::error_code ec;
    const fs::path canonical = fs::canonical(dir, ec);
    if (ec) return make_error("--data-dir " + dir + ": " + ec.message());
    if (!fs::is_directory(canonical, ec)) return make_error("--data-dir " + dir + ": not a directory");
    return canonical.string();
}

}  // namespace reversi::session
