#include "engine/core/replace_file.hpp"

#include <filesystem>
#include <fstream>

namespace reversi {

Expected<bool> replace_file(const std::string& path, std::span<const std::uint8_t> bytes, std::string_view what) {
    const std::string prefix = std::string(what) + " ";
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return make_error(prefix + tmp + ": cannot create the file");
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!out.flush()) return make_error(prefix + tmp + ": write error");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) return make_error(prefix + path + ": cannot rename " + tmp + ": " + ec.message());
    return true;
}

}  // namespace reversi
