// NBoard `learn`: the game the GUI sent (set game, move) is added to the session's book (engine/book/learn.hpp,
// its new positions searched at the session's `set depth` as `reversi-book learn` searches them) and the book
// file is written back (a temporary file renamed over it). The search runs as a job, so the reader stays free
// and a `ping` stops it: the positions searched before are kept. The job learns into a copy of the book; the
// copy replaces the session's book on the reader thread once the job has been joined (start_job_then).
#include <memory>

#include "engine/book/book_file.hpp"
#include "engine/book/leaf_search.hpp"
#include "engine/book/learn.hpp"
#include "protocol/nboard/nboard_frontend.hpp"
#include "protocol/text/printable.hpp"

namespace reversi::nboard {

namespace {

constexpr int kLearnSolveEmpties = 20;  // as reversi-book's default

std::string learned_status(const book::LearnReport& r, const book::Book& b, const std::string& file) {
    return "status learn: " + std::to_string(r.added) + " new positions (" + std::to_string(r.evaluations) +
           " searches" + (r.stopped ? ", stopped" : "") + "), book " + file + " saved (" + std::to_string(b.size()) +
           " positions)";
}

}  // namespace

void NboardFrontend::cmd_learn() {
    ctx_.stop_and_wait();  // a finished learn's book is installed before this one copies it
    const book::Book* current = ctx_.book().get();
    const std::string file = ctx_.options().book_file;
    if (current == nullptr || file.empty()) {
        ctx_.send("status no opening book: learn ignored");
        ctx_.send("learned");
        return;
    }
    if (ctx_.config().files.remote) {
        // Writing the server's --book from a network session would change every session's book file.
        ctx_.send("status learn ignored: a network session does not write the book file (the server's --book)");
        ctx_.send("learned");
        return;
    }
    auto learning = std::make_shared<book::Book>(*current);
    auto learned = std::make_shared<bool>(false);
    const session::GameState game = ctx_.game;
    const book::LeafSearch leaf{depth_, kLearnSolveEmpties};
    ctx_.start_job_then(
        [this, learning, learned, game, leaf, file](const std::atomic<bool>& stop) {
            ctx_.send("status learning");
            const auto evaluate = book::searched_evaluator(ctx_.searcher(), leaf, stop);
            auto report = book::learn_game(*learning, game.start, game.moves, {}, evaluate, &stop);
            if (!report) {
                ctx_.send("status error: learn: " + text::printable(report.error().message) +
                          "; the book is unchanged");
            } else if (auto saved = book::save_book_file(*learning, file); !saved) {
                *learned = true;
                ctx_.send("status error: learn: " + text::printable(saved.error().message) +
                          "; learned in memory only");
            } else {
                *learned = true;
                ctx_.send(learned_status(*report, *learning, file));
            }
            ctx_.send("learned");
        },
        [this, learning, learned, file] {
            if (*learned) ctx_.book().use(learning, file);
        });
}

}  // namespace reversi::nboard
