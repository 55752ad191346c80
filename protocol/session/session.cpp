#include "protocol/session/session.hpp"

#include <spdlog/spdlog.h>

#include "protocol/text/tokens.hpp"

namespace reversi::session {

namespace {

std::string first_word(std::string_view line) {
    const auto tokens = text::split_tokens(line);
    return tokens.empty() ? std::string() : text::lowercase(tokens[0]);
}

// Queued after every waiting job-starting command when a stop (NBoard: ping) arrives: the search started
// from there is ended at once. (A client sending this byte as a line merely stops its search.)
constexpr std::string_view kStopMarker = "\x01";

}  // namespace

Expected<std::unique_ptr<Session>> Session::create(const SessionConfig& config, LineSink sink, JobDoneNotifier job_done) {
    auto ctx = EngineContext::create(config, std::move(sink), std::move(job_done));
    if (!ctx) return ctx.error();
    return std::unique_ptr<Session>(new Session(std::move(*ctx)));
}

Session::Session(std::unique_ptr<EngineContext> ctx) : ctx_(std::move(ctx)), uci_(*ctx_) {}

bool Session::is_immediate(std::string_view command) const {
    if (nboard_) return false;
    for (const char* c : {"isready", "position", "d", "uci", "help", "debug", "ponderhit"}) {
        if (command == c) return true;
    }
    return false;
}

bool Session::is_stop(std::string_view command) const {
    return command == kStopMarker || command == (nboard_ ? "ping" : "stop");
}

bool Session::starts_job(std::string_view command) const {
    if (nboard_) return command == "go" || command == "hint" || command == "analyze";
    return command == "go" || command == "perft" || command == "bench";
}

uci::Status Session::handle_line(std::string_view line) {
    const std::string command = first_word(line);
    if (command.empty()) return uci::Status::Continue;
    if (quitting_) return uci::Status::Continue;  // a quit waits in the queue: nothing after it is read
    if (command == "quit") {
        if (pending_.empty()) return dispatch(line);
        // Everything asked before the quit is still carried out, in order, each waiting search stopped as
        // soon as it starts (so it still sends its one bestmove); the quit itself comes last.
        stop_running_and_waiting();
        pending_.emplace_back(line);
        quitting_ = true;
        return uci::Status::Continue;
    }
    const bool wait = !pending_.empty() || (ctx_->busy() && !is_immediate(command) && !is_stop(command));
    if (!wait) return dispatch(line);
    if (is_stop(command)) {
        stop_running_and_waiting();
        if (!nboard_) return uci::Status::Continue;  // NBoard: the ping itself waits for its pong
    }
    if (pending_.size() >= kMaxPending) {
        ctx_->send_error("more than " + std::to_string(kMaxPending) + " commands wait for the search; ignored");
        return uci::Status::Continue;
    }
    pending_.emplace_back(line);
    return uci::Status::Continue;
}

void Session::stop_running_and_waiting() {
    // Ends the running search now and every search asked for before this point: each waiting
    // job-starting command is followed by a stop marker.
    ctx_->stop_job();
    std::deque<std::string> rewritten;
    for (auto& waiting : pending_) {
        const bool job = starts_job(first_word(waiting));
        rewritten.push_back(std::move(waiting));
        if (job) rewritten.emplace_back(kStopMarker);
    }
    pending_ = std::move(rewritten);
}

uci::Status Session::resume() {
    while (!pending_.empty()) {
        const std::string command = first_word(pending_.front());
        if (ctx_->busy() && !is_immediate(command) && !is_stop(command)) break;
        const std::string line = std::move(pending_.front());
        pending_.pop_front();
        if (dispatch(line) == uci::Status::Quit) {
            pending_.clear();
            return uci::Status::Quit;
        }
    }
    return uci::Status::Continue;
}

void Session::shutdown() {
    pending_.clear();
    ctx_->stop_and_wait();
}

bool Session::drain_step() {
    if (ctx_->job_unbounded()) ctx_->stop_job();
    return ctx_->busy() || !pending_.empty();
}

uci::Status Session::dispatch(std::string_view line) {
    if (line == kStopMarker) {
        ctx_->stop_job();
        return uci::Status::Continue;
    }
    if (nboard_) return nboard_->handle(line);
    if (first_command_) {
        first_command_ = false;
        const auto tokens = text::split_tokens(line);
        if (text::iequals(tokens[0], "nboard")) {
            if (tokens.size() != 2) {
                ctx_->send("status error: nboard: expected a version, e.g. nboard 2; staying in UCI mode");
                return uci::Status::Continue;
            }
            auto version = text::parse_integer(tokens[1], 1, 1000, "nboard version");
            if (!version) {
                ctx_->send("status error: " + version.error().message + "; staying in UCI mode");
                return uci::Status::Continue;
            }
            spdlog::debug("session switches to NBoard protocol version {}", *version);
            nboard_ = std::make_unique<nboard::NboardFrontend>(*ctx_);
            return uci::Status::Continue;
        }
    }
    return uci_.handle(line);
}

}  // namespace reversi::session
