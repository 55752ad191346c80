#pragma once
// The engine's search facade for Othello positions: one object per session (it owns the session's
// transposition table). search() runs on the caller's thread until a limit is reached or `stop` becomes
// true, reporting each completed iteration through the callbacks.
#include <cstddef>
#include <memory>

#include "engine/board/position.hpp"
#include "engine/search/search_types.hpp"

namespace reversi {

class Searcher {
public:
    explicit Searcher(std::size_t hash_mib = 16);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Resizes the transposition table; false (and the old table kept) when the memory is not available.
    [[nodiscard]] bool set_hash_size(std::size_t mib);
    [[nodiscard]] std::size_t hash_size() const noexcept;
    void set_options(const SearchOptions& options);
    [[nodiscard]] const SearchOptions& options() const noexcept;
    // Clears the transposition table and history (ucinewgame).
    void clear();

    [[nodiscard]] SearchResult search(const Position& pos, const SearchLimits& limits, const SearchCallbacks& callbacks,
                                      const std::atomic<bool>& stop);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace reversi
