#pragma once
// One protocol session, independent of the transport: lines in (handle_line, from one reader thread),
// lines out through the sink. It speaks the UCI-style protocol, or NBoard when the first command is
// `nboard <version>`: this layer picks and owns the front end (uci/, nboard/), above what both share
// (session/: the engine context, jobs, budgets, options).
//
// Commands are carried out in the order they arrive, and the reader never blocks on a search: while a job
// (search, perft, bench, hint, analysis) runs, the commands that need the engine (go, setoption,
// ucinewgame, perft, bench, and everything in NBoard mode) wait in a queue; the transport calls resume()
// when the job has ended (JobDoneNotifier). `isready`, `position`, `d`, `uci` and `help` are answered at
// once when nothing waits. `stop` (NBoard: `ping`) ends the running job at once and every search that
// waits in the queue ahead of it (each is stopped as soon as it starts, so it still sends its bestmove).
// `quit` stops the running job; the commands that wait before it are still carried out in order, each
// waiting search stopped as soon as it starts (it still sends its one bestmove), then the session ends. The
// quit never joins the running job: it waits in the queue until the job has ended (a job that cannot be
// stopped, a table resize or clear, a weights file read, bench, would otherwise hold the reader).
// Lines after a queued quit are ignored. At most kMaxPending commands (kMaxPendingBytes bytes) wait; a
// command beyond that is refused with an error line (a refused `go` starts no search: no bestmove).
//
// No exception escapes handle_line() or resume(): a command that throws is logged and answered with an
// error line, and the session goes on.
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "protocol/nboard/nboard_frontend.hpp"
#include "protocol/session/engine_context.hpp"
#include "protocol/session/status.hpp"
#include "protocol/uci/uci_frontend.hpp"

namespace reversi::dispatch {

using session::EngineContext;
using session::JobDoneNotifier;
using session::LineSink;
using session::SessionConfig;
using session::Status;

class Session {
public:
    [[nodiscard]] static Expected<std::unique_ptr<Session>> create(const SessionConfig& config, LineSink sink,
                                                                   JobDoneNotifier job_done = {});
    // Stops and joins a running job first: the job uses the front ends, which are destroyed before the
    // engine context (a connection closed during an NBoard hint used to free them under the job).
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Handles one line (without its newline). Quit: the session is over (its job has ended).
    Status handle_line(std::string_view line);
    // Runs the commands that waited for the job that just ended (reader thread).
    Status resume();
    // Stops the running job and waits for it: its final lines (bestmove) have been sent on return. Commands
    // still waiting are dropped (used on a signal or a closed connection; a quit line drains the queue).
    void shutdown();
    // At the end of the input: stops a job that would never end by itself (go infinite), and reports
    // whether commands or a job remain (the transport waits for the job and calls resume()).
    [[nodiscard]] bool drain_step();
    void stop_job() noexcept { ctx_->stop_job(); }
    [[nodiscard]] bool busy() const noexcept { return ctx_->busy(); }
    [[nodiscard]] bool nboard_mode() const noexcept { return nboard_ != nullptr; }
    // False for lines that only keep a connection open (blank, isready; NBoard: ping): a server does not
    // count them as activity when it reclaims idle sessions.
    [[nodiscard]] bool counts_as_activity(std::string_view line) const;
    // The running job (reader thread): a serial number that changes with every job, and its start.
    [[nodiscard]] std::uint64_t job_serial() const noexcept { return ctx_->job_serial(); }
    [[nodiscard]] std::chrono::steady_clock::time_point job_started() const noexcept { return ctx_->job_started(); }
    // An error line in the session's protocol (UCI: info string error:, NBoard: status error:), and
    // sending one through the session's sink.
    [[nodiscard]] std::string error_line(const std::string& message) const;
    void send_error(const std::string& message) const;

    static constexpr std::size_t kMaxPending = 1024;
    static constexpr std::size_t kMaxPendingBytes = std::size_t{1} << 20;

private:
    explicit Session(std::unique_ptr<EngineContext> ctx);
    Status dispatch(std::string_view line);
    // dispatch() with a catch-all: a command that throws is reported, the session goes on.
    Status dispatch_guarded(std::string_view line) noexcept;
    void enqueue(std::string_view line, const std::string& command);
    // Answered at once while a job runs (when no command waits).
    [[nodiscard]] bool is_immediate(std::string_view command) const;
    [[nodiscard]] bool is_stop(std::string_view command) const;
    // Carried out while a job runs, ahead of nothing queued: UCI's stop and the stop marker.
    [[nodiscard]] bool passes_job(std::string_view command) const;
    [[nodiscard]] bool starts_job(std::string_view command) const;
    // A command carried out at once even when commands wait in the queue: ponderhit while a search ponders
    // (it is that search's: a go ponder still waiting can only start once the running one has had its
    // ponderhit or stop). isready keeps its place: it answers once what was sent before it is done.
    [[nodiscard]] bool passes_queue(std::string_view command) const;
    // Stops the running job and marks every waiting job-starting command to be stopped once started.
    void stop_running_and_waiting();

    std::unique_ptr<EngineContext> ctx_;
    uci::UciFrontend uci_;
    std::unique_ptr<nboard::NboardFrontend> nboard_;
    std::deque<std::string> pending_;
    std::size_t pending_bytes_ = 0;
    bool first_command_ = true;
    bool quitting_ = false;  // a quit waits at the end of pending_
};

}  // namespace reversi::dispatch
