#include "engine/core/replace_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>

#include "engine/core/unique_fd.hpp"

namespace reversi {

namespace {

// A new temporary file beside `path`, created exclusively (O_EXCL, so a file or link already there is never
// written through): PATH.tmp.PID-THREAD, or with a clock suffix when that name is taken (a writer of another
// machine or container on a shared folder, or a file left by a writer that was killed). Two writers of one
// file each rename their own whole file; the last wins. On failure `why` says why.
UniqueFd create_temporary(const std::string& path, std::string& tmp, std::string& why) {
    const std::string base = path + ".tmp." + std::to_string(::getpid()) + "-" +
                             std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    tmp = base;
    for (int attempt = 0; attempt < 8; ++attempt) {
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return UniqueFd(fd);
        if (errno != EEXIST) {
            why = std::strerror(errno);
            return UniqueFd(-1);
        }
        const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
        tmp = base + "-" + std::to_string(ticks) + "-" + std::to_string(attempt);
    }
    why = "8 names taken";
    return UniqueFd(-1);
}

bool write_all(int fd, std::span<const std::uint8_t> bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

Expected<bool> replace_file(const std::string& path, std::span<const std::uint8_t> bytes, std::string_view what) {
    const std::string prefix = std::string(what) + " ";
    std::string tmp, why;
    UniqueFd fd = create_temporary(path, tmp, why);
    if (fd.get() < 0) return make_error(prefix + tmp + ": cannot create the file (" + why + ")");
    // On the disk before the rename: after a power cut the file is the old one or the new one, never empty.
    const bool written = write_all(fd.get(), bytes) && ::fsync(fd.get()) == 0;
    const bool closed = ::close(fd.release()) == 0;  // a delayed write error shows here
    if (!written || !closed) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);  // nothing half-written is left beside the file
        return make_error(prefix + tmp + ": write error");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);  // e.g. `path` is a folder: the file it was to become goes too
        return make_error(prefix + path + ": cannot rename " + tmp + ": " + ec.message());
    }
    return true;
}

}  // namespace reversi
