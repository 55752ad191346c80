#include "protocol/session/book_move.hpp"

#include "engine/board/notation.hpp"
#include "engine/book/book_file.hpp"

namespace reversi::session {

SessionBook::SessionBook() : rng_(std::random_device{}()) {}

Expected<bool> SessionBook::load(const FileAccess& access, const std::string& file) {
    if (file.empty()) {
        book_.reset();
        name_.clear();
        return true;
    }
    // The file is read here, on the session's reader: over TCP that is the network thread, which a read of
    // up to 64 MiB must not hold. A server gives its sessions a book with --book instead.
    if (access.remote) {
        return make_error(
            "setoption BookFile: not available over the network (the server's --book gives every session its "
            "book); the old book stays");
    }
    auto path = resolve_for_reading(access, file);
    if (!path) return make_error("setoption BookFile: " + path.error().message + "; the old book stays");
    auto loaded = book::load_book_file(*path, file);
    if (!loaded) return make_error("setoption BookFile: " + loaded.error().message + "; the old book stays");
    use(std::make_shared<const book::Book>(std::move(*loaded)), file);
    return true;
}

void SessionBook::use(std::shared_ptr<const book::Book> book, const std::string& name) {
    book_ = std::move(book);
    name_ = name;
}

std::optional<BookAnswer> book_move(const book::Book* book, const EngineOptions& options, const Position& pos,
                                    std::uint64_t random) {
    if (!options.book || book == nullptr) return std::nullopt;
    const auto moves = book->moves(pos);
    if (moves.empty()) return std::nullopt;
    const book::BookMove m = book::choose_book_move(moves, options.book_randomness, random);
    return BookAnswer{m.square, m.value};
}

std::string book_info_line(const BookAnswer& answer) {
    return "info string book move " + move_to_string(answer.move) + " value " + std::to_string(answer.value);
}

std::string book_moves_text(const book::Book* book, const Position& pos) {
    if (book == nullptr) return "Book: none";
    const auto moves = book->moves(pos);
    if (moves.empty()) return "Book: not in the book";
    std::string s = "Book:";
    for (const auto& m : moves) {
        s += ' ';
        s += move_to_string(m.square);
        s += ' ';
        if (m.value >= 0) s += '+';
        s += std::to_string(m.value);
    }
    return s;
}

}  // namespace reversi::session
