#pragma once
// The web board's static files (protocol/web/page/), compiled into the binary (the build generates
// page_files.cpp from them: protocol/CMakeLists.txt).
#include <string_view>

namespace reversi::web {

struct PageFile {
    std::string_view path;          // "/", "/board.css", ...
    std::string_view content_type;  // with its charset
    std::string_view body;
};

// The file served at `path` (the request target without its query), or nullptr.
[[nodiscard]] const PageFile* find_page_file(std::string_view path) noexcept;

}  // namespace reversi::web
