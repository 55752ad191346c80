#include "protocol/dispatch/session.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "protocol/session/test_hooks.hpp"
#include "protocol/text/printable.hpp"
#include "protocol/text/tokens.hpp"

namespace reversi::dispatch {

namespace {

// Longer than every command: a word cut here is none of them.
constexpr std::size_t kMaxCommandChars = 64;

// The line's command, lower-cased, cut at kMaxCommandChars. Classifying a line reads no more than that:
// every stop classifies the whole waiting queue again (stop_running_and_waiting), so a flood of stops
// after 1 MiB of long waiting lines must not rescan that MiB each time.
std::string first_word(std::string_view line) {
    return text::lowercase(text::first_token(line).substr(0, kMaxCommandChars));
}

// Queued after every waiting job-starting command when a stop (NBoard: ping) arrives: the search started
// from there is ended at once. (A client sending this byte as a line merely stops its search.)
constexpr std::string_view kStopMarker = "\x01";

}  // namespace

Expected<std::unique_ptr<Session>> Session::create(const SessionConfig& config, LineSink sink,
                                                   JobDoneNotifier job_done) {
    auto ctx = EngineContext::create(config, std::move(sink), std::move(job_done));
    if (!ctx) return ctx.error();
    return std::unique_ptr<Session>(new Session(std::move(*ctx)));
}

Session::Session(std::unique_ptr<EngineContext> ctx) : ctx_(std::move(ctx)), uci_(*ctx_) {}

Session::~Session() { ctx_->end_job(); }

bool Session::is_immediate(std::string_view command) const {
    if (nboard_ || ctx_->job_exclusive()) return false;
    for (const char* c : {"isready", "position", "d", "uci", "help", "debug", "ponderhit"}) {
        if (command == c) return true;
    }
    return false;
}

bool Session::is_stop(std::string_view command) const {
    return command == kStopMarker || command == (nboard_ ? "ping" : "stop");
}

bool Session::passes_job(std::string_view command) const {
    // UCI's stop and the stop marker act on the running job. NBoard's ping stops it too (handle_line), but
    // its pong waits in the queue until the job has ended: the ping's handler would join it, and a job
    // that cannot be stopped (a table allocation) would hold the reader, a server's network thread.
    return command == kStopMarker || (!nboard_ && command == "stop");
}

bool Session::starts_job(std::string_view command) const {
    if (nboard_) return command == "go" || command == "hint" || command == "analyze" || command == "learn";
    return command == "go" || command == "perft" || command == "bench";
}

bool Session::passes_queue(std::string_view command) const {
    return command == "ponderhit" && is_immediate(command) && uci_.pondering();
}

Status Session::handle_line(std::string_view line) {
    const std::string command = first_word(line);
    if (command.empty()) return Status::Continue;
    if (quitting_) return Status::Continue;  // a quit waits in the queue: nothing after it is read
    if (command == "quit") {
        // A running job is stopped, not joined here (on a server's network thread: a job that cannot be
        // stopped, a Hash resize, a table clear, a weights file read or bench, would freeze every client):
        // the quit waits in the queue until the job has ended.
        if (pending_.empty() && !ctx_->busy()) return dispatch_guarded(line);
        // Everything asked before the quit is still carried out, in order, each waiting search stopped as
        // soon as it starts (so it still sends its one bestmove); the quit itself comes last.
        stop_running_and_waiting();
        pending_.emplace_back(line);
        pending_bytes_ += line.size();
        quitting_ = true;
        return Status::Continue;
    }
    // Before, a ponderhit waited behind any queued line (an unknown word, a setoption) that itself waited
    // for the pondering search to end: the search pondered on past its clock.
    const bool wait = (!pending_.empty() && !passes_queue(command)) ||
                      (ctx_->busy() && !is_immediate(command) && !passes_job(command));
    if (!wait) return dispatch_guarded(line);
    if (is_stop(command)) {
        stop_running_and_waiting();
        if (!nboard_) return Status::Continue;  // NBoard: the ping itself waits for its pong
    }
    enqueue(line, command);
    return Status::Continue;
}

void Session::enqueue(std::string_view line, const std::string& command) {
    if (pending_.size() >= kMaxPending || pending_bytes_ + line.size() > kMaxPendingBytes) {
        std::string text = "more than " + std::to_string(kMaxPending) + " commands (or " +
                           std::to_string(kMaxPendingBytes >> 20) + " MiB) wait for the search; " +
                           text::quote(command.substr(0, 32)) + " ignored";
        if (starts_job(command)) text += ": no search started";
        send_error(text);
        return;
    }
    pending_.emplace_back(line);
    pending_bytes_ += line.size();
}

std::string Session::error_line(const std::string& message) const {
    return (nboard_ ? "status error: " : "info string error: ") + text::printable(message);
}

void Session::send_error(const std::string& message) const { ctx_->send(error_line(message)); }

bool Session::counts_as_activity(std::string_view line) const {
    const std::string command = first_word(line);
    return !command.empty() && command != "isready" && !(nboard_ && command == "ping");
}

Status Session::dispatch_guarded(std::string_view line) noexcept {
    const char* what = "unknown exception";
    std::string detail;
    try {
        return dispatch(line);
    } catch (const std::exception& e) {
        try {
            detail = e.what();
        } catch (...) {
        }
    } catch (...) {
    }
    try {
        if (!detail.empty()) what = detail.c_str();
        const std::string command = first_word(line).substr(0, 32);
        spdlog::error("internal error in command '{}': {}", command, what);
        send_error("internal error in " + text::quote(command) + ": " + what + "; the session goes on");
    } catch (...) {  // out of memory even for the report: the log above may be all there is
    }
    return Status::Continue;
}

void Session::stop_running_and_waiting() {
    // Ends the running search now and every search asked for before this point: each waiting
    // job-starting command is followed by a stop marker, once (a flood of stops must not grow the queue).
    ctx_->stop_job();
    std::deque<std::string> rewritten;
    for (std::size_t i = 0; i < pending_.size(); ++i) {
        const bool job = starts_job(first_word(pending_[i]));
        const bool stopped = i + 1 < pending_.size() && pending_[i + 1] == kStopMarker;
        rewritten.push_back(std::move(pending_[i]));
        if (job && !stopped) {
            rewritten.emplace_back(kStopMarker);
            pending_bytes_ += kStopMarker.size();
        }
    }
    pending_ = std::move(rewritten);
}

Status Session::resume() {
    ctx_->collect_finished_job();  // also when nothing waits: a refused EvalFile is answered now
    while (!pending_.empty()) {
        const std::string command = first_word(pending_.front());
        if (ctx_->busy() && !is_immediate(command) && !passes_job(command)) break;
        const std::string line = std::move(pending_.front());
        pending_.pop_front();
        pending_bytes_ -= std::min(pending_bytes_, line.size());
        if (dispatch_guarded(line) == Status::Quit) {
            pending_.clear();
            pending_bytes_ = 0;
            return Status::Quit;
        }
    }
    return Status::Continue;
}

void Session::shutdown() {
    pending_.clear();
    pending_bytes_ = 0;
    ctx_->stop_and_wait();
}

bool Session::drain_step() {
    if (ctx_->job_unbounded()) ctx_->stop_job();
    return ctx_->busy() || !pending_.empty();
}

Status Session::dispatch(std::string_view line) {
    ctx_->collect_finished_job();  // the result of a file read for an option comes before what follows
    if (line == kStopMarker) {
        ctx_->stop_job();
        return Status::Continue;
    }
    if (ctx_->config().test_hooks && session::run_test_hook(*ctx_, line)) return Status::Continue;
    if (nboard_) return nboard_->handle(line);
    if (first_command_) {
        first_command_ = false;
        const auto tokens = text::split_tokens(line);
        if (text::iequals(tokens[0], "nboard")) {
            if (tokens.size() != 2) {
                ctx_->send("status error: nboard: expected a version, e.g. nboard 2; staying in UCI mode");
                return Status::Continue;
            }
            auto version = text::parse_integer(tokens[1], 1, 1000, "nboard version");
            if (!version) {
                ctx_->send("status error: " + version.error().message + "; staying in UCI mode");
                return Status::Continue;
            }
            spdlog::debug("session switches to NBoard protocol version {}", *version);
            nboard_ = std::make_unique<nboard::NboardFrontend>(*ctx_);
            return Status::Continue;
        }
    }
    return uci_.handle(line);
}

}  // namespace reversi::dispatch
