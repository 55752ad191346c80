#pragma once
// What a protocol session owns, shared by its UCI and NBoard front ends: the game (start position, moves,
// current position), the options, the Searcher (its transposition table reserved against the memory
// budget), the background job and the line sink replies go to.
//
// Threads: the front end calls everything here from the session's reader; a job (search, perft...) runs
// on the JobRunner's thread and only uses the Searcher, its own copies of the position and limits, and
// send(). The front ends touch the Searcher only after wait_idle(), which joins the job.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/board/position.hpp"
#include "engine/core/expected.hpp"
#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/search/searcher.hpp"
#include "protocol/session/book_move.hpp"
#include "protocol/session/engine_options.hpp"
#include "protocol/session/file_access.hpp"
#include "protocol/session/job_runner.hpp"
#include "protocol/session/memory_budget.hpp"
#include "protocol/session/thread_budget.hpp"
#include "protocol/text/printable.hpp"

namespace reversi::session {

// Receives one reply line (without newline). Must be thread-safe: jobs call it from their thread.
using LineSink = std::function<void(std::string line)>;
// Called on the job's thread when a job has ended; the transport then calls dispatch::Session::resume() on the
// session's reader thread (to run the commands that waited for the job).
using JobDoneNotifier = std::function<void()>;

// A session's tables are allocated at this size when it is created (on the reader's thread, a server's
// network thread); a larger Hash is reached by an exclusive job, as for setoption Hash (hundreds of MiB
// take a second to clear), which the session's first commands wait for.
inline constexpr std::size_t kStartHashMiB = 16;

struct SessionConfig {
    std::size_t hash_mib = 16;        // Hash at the start of a session
    MemoryBudget* budget = nullptr;   // server-wide budget; nullptr: no limit (stdio)
    ThreadBudget* threads = nullptr;  // server-wide search threads; nullptr: no limit (stdio)
    FileAccess files;                 // which files options may name (file_access.hpp)
    bool test_hooks = false;          // --test-hooks: the test-only commands (test_hooks.hpp)
    std::string engine_name = "reversi";
    // The opening book of every session from the start (--book; read once, shared, never changed):
    // BookFile names it; nullptr: none until BookFile is set.
    std::shared_ptr<const book::Book> book;
    std::string book_file;
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
    // An error line; the message printable and bounded (text::printable), whatever input it repeats.
    void send_error(const std::string& message) const { send("info string error: " + text::printable(message)); }

    // Stops a running job and joins it: its final lines (bestmove...) have been sent when this returns.
    void stop_and_wait();
    // The same without collecting the job's result (a destructor's: the session is going away).
    void end_job() noexcept;
    [[nodiscard]] bool busy() const noexcept { return jobs_.running(); }
    // Thread-safe (a job's own timer may stop it).
    void stop_job() noexcept { jobs_.stop(); }
    // From the running job: blocks until it is asked to stop (go infinite waits so for its `stop`).
    void wait_for_stop() { jobs_.wait_for_stop(); }
    // Starts a job after stop_and_wait(). `unbounded`: the job only ends when stopped (go infinite).
    // With a server thread budget the search's Threads are granted from it for the job's duration. An
    // exception escaping the job is logged and answered with an error line. `on_stop`: called by every
    // stop of this job (JobRunner::start), for a job that waits on a condition of its own.
    void start_job(JobRunner::Job job, bool unbounded = false, std::function<void()> on_stop = {});
    // Starts a job like start_job; `collect` runs on the reader thread once the job has been joined
    // (collect_finished_job, before the next command): how a job hands a result to the session (NBoard
    // `learn` installs the book it learned into).
    void start_job_then(JobRunner::Job job, std::function<void()> collect);
    // Starts a job that searches on one thread of its own (bench, perft): with a server thread budget it is
    // granted one thread, not the session's Threads.
    void start_one_thread_job(JobRunner::Job job);
    // The running job only ends when stopped (reader thread only).
    [[nodiscard]] bool job_unbounded() const noexcept { return busy() && job_unbounded_; }
    // The running job has become one that ends by itself (a pondering search at ponderhit; reader thread).
    void mark_job_bounded() noexcept { job_unbounded_ = false; }
    // Starts a job that nothing is answered before, isready included (job_exclusive): work a command asks
    // for that takes time with large tables (ucinewgame's clear), kept off the reader thread, which for a
    // network session is the server's network thread.
    void start_exclusive_job(JobRunner::Job job);
    // Runs `then` (reader thread) once the exact solver's table exists: at once when it does, else after an
    // exclusive job has allocated it (2 x Hash is hundreds of MiB at a large Hash, and a second of a server's
    // network thread). isready and NBoard's ping answer so: the first timed move then does not pay for it.
    void when_endgame_ready(std::function<void()> then);
    // A running job that reads a file for an option, or another exclusive job: nothing is answered before
    // its result.
    [[nodiscard]] bool job_exclusive() const noexcept { return busy() && exclusive_; }
    // Tests only (test-no-threads, test_hooks.hpp): the next `count` job starts fail as when the system has
    // no thread left (std::system_error, resource_unavailable_try_again).
    void fail_next_job_starts(int count) noexcept { failing_job_starts_ = count; }
    // Counts the jobs started, and when the last one started (reader thread only).
    [[nodiscard]] std::uint64_t job_serial() const noexcept { return job_serial_; }
    [[nodiscard]] std::chrono::steady_clock::time_point job_started() const noexcept { return job_started_; }
    // Applies the result of a finished job that loaded a file (reader thread; nothing when a job runs).
    void collect_finished_job();
    // Search threads a session may ask for (the server's budget, or the protocol's maximum).
    [[nodiscard]] int max_threads() const noexcept;

    // Only between jobs (after stop_and_wait()).
    [[nodiscard]] Searcher& searcher() noexcept { return *searcher_; }
    [[nodiscard]] const EngineOptions& options() const noexcept { return options_; }
    // Applies new options (after stop_and_wait()); on failure nothing changes. A new Hash reserves its
    // memory at once (or is refused) and the tables are resized by an exclusive job; a new EvalFile is read
    // and checked on the job thread. Neither runs on the reader's thread: their results (the new size or
    // weights, or an error line) are applied by collect_finished_job().
    [[nodiscard]] Expected<bool> set_options(const EngineOptions& next);

    [[nodiscard]] const SessionConfig& config() const noexcept { return config_; }
    // Hands search options to the Searcher (between jobs); on a server Threads is left to the next job's
    // thread grant, so that no helper thread exists outside a job.
    void use_search_options(SearchOptions options);
    // The opening book (BookFile; read on the reader thread by set_options: books are small).
    [[nodiscard]] SessionBook& book() noexcept { return book_; }

    GameState game;

private:
    EngineContext(const SessionConfig& config, LineSink sink, JobDoneNotifier job_done,
                  std::unique_ptr<Searcher> searcher);
    [[nodiscard]] Expected<MemoryReservation> reserve_hash(std::size_t hash_mib);
    // `clear`: the tables are cleared too (the evaluation changed in the same call).
    void start_hash_resize(std::size_t hash_mib, MemoryReservation growth, bool clear);
    void apply_resized_hash();
    [[nodiscard]] Expected<bool> start_weights_load(const std::string& file);
    void apply_loaded_weights();
    void launch(JobRunner::Job job, bool unbounded, int threads, std::function<void()> on_stop = {});
    // With a server thread budget: the job's Threads - 1 helper threads are created for it from its grant
    // (grant_threads) and joined when it ends (park_no_helpers, on the job's thread, which owns the
    // Searcher until it returns), so that idle sessions hold no search threads beyond --max-threads.
    [[nodiscard]] std::shared_ptr<ThreadGrant> grant_threads(int wanted);
    void park_no_helpers();

    // What a table-resizing job leaves for the reader thread.
    struct ResizedHash {
        std::size_t mib = 0;
        bool resized = false;
    };
    // What a weights-loading job leaves for the reader thread.
    struct LoadedWeights {
        std::string file;  // as the client named it
        Expected<eval::PatternEvaluator> result;
    };

    SessionConfig config_;
    LineSink sink_;
    JobDoneNotifier job_done_;
    bool job_unbounded_ = false;
    bool exclusive_ = false;  // the running job is exclusive: loads weights, clears tables (reader thread)
    std::uint64_t job_serial_ = 0;
    int failing_job_starts_ = 0;  // fail_next_job_starts
    std::chrono::steady_clock::time_point job_started_{};
    std::optional<LoadedWeights> loaded_;      // written by the loading job, read after it has been joined
    std::optional<ResizedHash> resized_hash_;  // written by the resizing job, read after it has been joined
    MemoryReservation hash_growth_;            // a larger table's extra 2 x Hash, until it is allocated
    MemoryReservation eval_file_memory_;       // the weights of EvalFile in use (kEvalFileMiB; none when embedded)
    MemoryReservation loading_memory_;         // the weights being loaded, until they replace those in use
    std::function<void()> collect_;  // start_job_then's (when_endgame_ready's), run after the job has been joined
    EngineOptions options_;
    SessionBook book_;
    std::unique_ptr<Searcher> searcher_;
    JobRunner jobs_;  // declared last: destroyed (stopped and joined) first
};

}  // namespace reversi::session
