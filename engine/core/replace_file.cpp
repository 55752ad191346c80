#include "engine/core/replace_file.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

namespace reversi {

Expected<bool> replace_file(const std::string& path, std::span<const std::uint8_t> bytes, std::string_view what) {
    const std::string prefix = std::string(what) + " ";
    // A name of this process and thread: two writers of one file (two engines learning into one book) each
    // rename their own whole file, the last one wins; a shared PATH.tmp made one rename fail.
    const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "-" +
                            std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 1000000);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return make_error(prefix + tmp + ": cannot create the file");
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!out.flush()) {
            out.close();
            std::error_code ignored;
            std::filesystem::remove(tmp, ignored);  // nothing half-written is left beside the file
            return make_error(prefix + tmp + ": write error");
        }
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
