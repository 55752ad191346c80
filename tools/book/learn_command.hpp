#pragma once
// `reversi-book learn`: adds the games of --games files to a book (engine/book/learn.hpp), each new position
// with all its moves searched as `build` searches them (engine/book/leaf_search.hpp). Resumable like
// `build`: saved every --save-every new positions, on Ctrl-C/SIGTERM and at the end; a game already
// learned adds nothing.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/book/leaf_search.hpp"
#include "engine/book/learn.hpp"

namespace reversi::book_tool {

struct LearnSettings {
    std::string path;
    std::vector<std::string> games_files;
    book::LeafSearch leaf;
    book::LearnOptions learn;
    std::size_t save_every = 100;
    std::size_t hash_mib = 64;
    int threads = 1;
};

// 0 when every readable game was learned (games skipped for bad input are reported, not failures), 1 when
// the book or a games file cannot be read or the book cannot be saved.
[[nodiscard]] int learn_games(const LearnSettings& s);

}  // namespace reversi::book_tool
