#pragma once
// `reversi-book export-edax` and `import-edax`: a book to and from Edax's binary book.dat
// (engine/book/edax_book.hpp, edax_import.hpp).
#include <cstddef>
#include <string>

#include "engine/book/leaf_search.hpp"

namespace reversi::book_tool {

// Writes the book at `book_path` as an Edax book at `out_path`, each position at Edax level `level`.
// 0, or 1 with a message when a file cannot be read or written.
[[nodiscard]] int export_edax(const std::string& book_path, const std::string& out_path, int level);

struct EdaxImportSettings {
    std::string path;       // the book to add to (created when missing)
    std::string edax_path;  // the Edax book.dat
    book::LeafSearch leaf;
    std::size_t hash_mib = 64;
    int threads = 1;
};

// Adds the positions of the Edax book, each move valued by the engine's search (saved at the end and on
// Ctrl-C/SIGTERM; a second run adds only what is missing). 0, or 1 with a message.
[[nodiscard]] int import_edax(const EdaxImportSettings& s);

}  // namespace reversi::book_tool
