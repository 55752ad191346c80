#pragma once
// The session's opening book (engine/book/): the file named by the BookFile option and the book move of a
// position when the options allow one. The front ends decide when a search may be answered from the book
// (docs/book.md): the UCI front end for a `go` with a clock or movetime only, the NBoard front end for
// `go`; `bench`, `go depth/nodes/infinite/solve/wld/ponder/searchmoves` always search.
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/book/book.hpp"
#include "engine/core/expected.hpp"
#include "protocol/session/engine_options.hpp"
#include "protocol/session/file_access.hpp"

namespace reversi::session {

class SessionBook {
public:
    SessionBook();
    // Reads and checks `file` (empty: no book) on the caller's thread; a network session may not name a
    // book file (its reader is the network thread; the server's --book serves every session). On error the
    // old book stays and the error says why.
    [[nodiscard]] Expected<bool> load(const FileAccess& access, const std::string& file);
    // Installs a book already in memory (tests, the embedded one); `name` names it in messages.
    void use(std::shared_ptr<const book::Book> book, const std::string& name);
    [[nodiscard]] const book::Book* get() const noexcept { return book_.get(); }
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    // A random number for BookRandomness (reader thread only).
    [[nodiscard]] std::uint64_t next_random() { return rng_(); }

private:
    std::shared_ptr<const book::Book> book_;
    std::string name_;
    std::mt19937_64 rng_;
};

struct BookAnswer {
    Move move = kNoMove;
    int value = 0;  // discs, side to move
};

// The move to play from the book: nullopt when the Book option is off, no book is loaded or `pos` is not
// in it. BookRandomness picks among the moves within that many discs of the best.
[[nodiscard]] std::optional<BookAnswer> book_move(const book::Book* book, const EngineOptions& options,
                                                  const Position& pos, std::uint64_t random);

// `info string book move f5 value 0`.
[[nodiscard]] std::string book_info_line(const BookAnswer& answer);

// One line for `d`: "Book: f5 +0, d3 +0 ..." (best first), or "Book: not in the book" / "Book: none".
[[nodiscard]] std::string book_moves_text(const book::Book* book, const Position& pos);

}  // namespace reversi::session
