#pragma once
// What a protocol session owns, shared by its UCI and NBoard front ends: the game (start position, moves,
// current position), the options, the Searcher (its transposition table reserved against the memory
// budget), the background job and the line sink replies go to.
//
// Threads: the front end calls everything here from the session's reader; a job (search, perft...) runs
// on the JobRunner's thread and only uses the Searcher, its own copies of the position and limits, and
// send(). The front ends touch the Searcher only after wait_idle(), which joins the job.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"
#include "engine/search/searcher.hpp"
#include "protocol/session/job_runner.hpp"
#include "protocol/session/memory_budget.hpp"
#include "protocol/uci/engine_options.hpp"

namespace reversi::session {

// Receives one reply line (without newline). Must be thread-safe: jobs call it from their thread.
using LineSink = std::function<void(std::string line)>;
// Called on the job's thread when a job has ended; the transport then calls Session::resume() on the
// session's reader thread (to run the commands that waited for the job).
using JobDoneNotifier = std::function<void()>;

struct SessionConfig {
    std::size_t hash_mib = 16;           // Hash at the start of a session
    MemoryBudget* budget = nullptr;      // server-wide budget; nullptr: no limit (stdio)
    std::string engine_name = "reversi";
};

struct GameState {
    Position start;
    std::vector<Move> moves;
    Position current;
};

class EngineContext {
public:
    // Fails when the budget cannot hold the session's hash table.
    [[nodiscard]] static Expected<std::unique_ptr<EngineContext>> create(const SessionConfig& config, LineSink sink,
                                                                         JobDoneNotifier job_done = {});
    ~EngineContext();
    EngineContext(const EngineContext&) = delete;
    EngineContext& operator=(const EngineContext&) = delete;

    void send(std::string line) const { sink_(std::move(line)); }
    void send_error(const std::string& message) const { send("info string error: " + message); }

    // Stops a running job and joins it: its final lines (bestmove...) have been sent when this returns.
    void stop_and_wait();
    [[nodiscard]] bool busy() const noexcept { return jobs_.running(); }
    void stop_job() noexcept { jobs_.stop(); }
    // Starts a job after stop_and_wait(). `unbounded`: the job only ends when stopped (go infinite).
    void start_job(JobRunner::Job job, bool unbounded = false);
    // The running job only ends when stopped (reader thread only).
    [[nodiscard]] bool job_unbounded() const noexcept { return busy() && job_unbounded_; }

    // Only between jobs (after stop_and_wait()).
    [[nodiscard]] Searcher& searcher() noexcept { return *searcher_; }
    [[nodiscard]] const uci::EngineOptions& options() const noexcept { return options_; }
    // Applies new options (after stop_and_wait()): reserves or releases hash memory and resizes the table;
    // on failure nothing changes.
    [[nodiscard]] Expected<bool> set_options(const uci::EngineOptions& next);

    [[nodiscard]] const SessionConfig& config() const noexcept { return config_; }

    GameState game;

private:
    EngineContext(const SessionConfig& config, LineSink sink, JobDoneNotifier job_done,
                  std::unique_ptr<Searcher> searcher);

    SessionConfig config_;
    LineSink sink_;
    JobDoneNotifier job_done_;
    bool job_unbounded_ = false;
    uci::EngineOptions options_;
    std::unique_ptr<Searcher> searcher_;
    JobRunner jobs_;  // declared last: destroyed (stopped and joined) first
};

}  // namespace reversi::session
