#pragma once
// Writing a whole file so that a reader never sees half of it: the bytes go to a new file
// PATH.tmp.PID-THREAD (created exclusively, never through a file or link already there; another suffix
// when the name is taken), written and synced to the disk, then renamed over PATH (atomic on one file
// system; concurrent writers each rename their own file, the last one wins). A writer killed between the
// two leaves its temporary file behind. Used by every binary format the project writes (weights, books,
// WTHOR games, sample caches, Edax books).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/core/expected.hpp"

namespace reversi {

// Errors start with `what` (the kind of file, e.g. "book") and name the file: "<what> PATH.tmp.ID: cannot
// create the file", "<what> PATH.tmp.ID: write error", "<what> PATH: cannot rename PATH.tmp.ID: <reason>".
[[nodiscard]] Expected<bool> replace_file(const std::string& path, std::span<const std::uint8_t> bytes,
                                          std::string_view what);
// The same for text.
[[nodiscard]] inline Expected<bool> replace_file(const std::string& path, std::string_view text,
                                                 std::string_view what) {
    return replace_file(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), what);
}

}  // namespace reversi
