// The work a command asks for that takes time in proportion to Hash (allocating or clearing the tables)
// runs as an exclusive job, never on the thread that reads the lines, which for a network session is the
// server's one network thread; and a quit does not join a job that cannot be stopped. Checked in process,
// on a dispatch::Session whose sink and job notifications the test holds: a reply that comes from a job
// is only sent when the test calls resume(). A job may end before the test's next command (the command is
// then answered at once), so the checks ask whether a job was started (job_serial), not which came first.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "protocol/dispatch/session.hpp"

using namespace reversi;
using namespace std::chrono_literals;

namespace {

// A session with its output collected and its job notifications counted.
class SessionUnderTest {
public:
    explicit SessionUnderTest(std::size_t hash_mib = 4) {
        dispatch::SessionConfig config;
        config.hash_mib = hash_mib;
        config.test_hooks = true;
        auto created = dispatch::Session::create(
            config,
            [this](std::string line) {
                std::lock_guard lock(mutex_);
                lines_.push_back(std::move(line));
            },
            [this] {
                {
                    std::lock_guard lock(mutex_);
                    ++jobs_done_;
                }
                done_.notify_all();
            });
        REQUIRE(created);
        session_ = std::move(*created);
    }

    session::Status send(const std::string& line) { return session_->handle_line(line); }
    dispatch::Session& session() { return *session_; }

    // Waits for the next job to end, then hands the waiting commands to the session (as a transport does).
    session::Status finish_job() {
        {
            std::unique_lock lock(mutex_);
            REQUIRE(done_.wait_for(lock, 30s, [this] { return jobs_done_ > jobs_seen_; }));
            jobs_seen_ = jobs_done_;
        }
        return session_->resume();
    }

    // Hands finished jobs to the session until `line` has been sent `n` times (a job may end before the
    // next command arrives, which is then answered at once: either order is right).
    bool wait_for(const std::string& line, int n) {
        for (int jobs = 0; jobs < 4 && count(line) < n; ++jobs) (void)finish_job();
        return count(line) == n;
    }

    [[nodiscard]] int count(const std::string& line) {
        std::lock_guard lock(mutex_);
        return static_cast<int>(std::count(lines_.begin(), lines_.end(), line));
    }

private:
    std::mutex mutex_;
    std::condition_variable done_;
    std::vector<std::string> lines_;
    int jobs_done_ = 0;
    int jobs_seen_ = 0;
    std::unique_ptr<dispatch::Session> session_;
};

}  // namespace

TEST_CASE("exclusive jobs: isready allocates the solver's table in a job, readyok after it, once") {
    SessionUnderTest t;
    // The table does not exist yet: a job allocates it; readyok only when the job has been collected.
    t.send("isready");
    CHECK(t.count("readyok") == 0);
    CHECK(t.finish_job() == session::Status::Continue);
    CHECK(t.count("readyok") == 1);
    // Now it exists: readyok at once, no job.
    t.send("isready");
    CHECK(t.count("readyok") == 2);
    CHECK(!t.session().busy());
    // A new Hash size resizes both tables in one job (isready waits for it, or comes after its end).
    const auto serial = t.session().job_serial();
    t.send("setoption name Hash value 8");
    CHECK(t.session().job_serial() == serial + 1);
    t.send("isready");
    CHECK(t.wait_for("readyok", 3));
}

TEST_CASE("exclusive jobs: a session with a large Hash gets its tables from a job, its first commands wait") {
    static_assert(session::kStartHashMiB == 16);
    SessionUnderTest t(48);  // created with 16 MiB tables; the job makes them 48
    CHECK(t.session().job_serial() == 1);
    t.send("isready");
    CHECK(t.count("readyok") == 0);  // after the resize, and after the solver's table (another job)
    CHECK(t.wait_for("readyok", 1));
    t.send("uci");  // Hash as asked once the job is done
    CHECK(t.count("option name Hash type spin default 48 min 1 max 65536") == 1);
}

TEST_CASE("exclusive jobs: NBoard's ping answers its pong after the job that allocates the solver's table") {
    SessionUnderTest t;
    t.send("nboard 2");
    t.send("ping 7");
    CHECK(t.count("pong 7") == 0);
    CHECK(t.finish_job() == session::Status::Continue);
    CHECK(t.count("pong 7") == 1);
    t.send("ping 8");
    CHECK(t.count("pong 8") == 1);
}

TEST_CASE("exclusive jobs: NBoard's ping during a job that cannot be stopped waits in the queue") {
    SessionUnderTest t;
    t.send("nboard 2");
    t.send("test-slow-job 3000");
    REQUIRE(t.count("info string test-slow-job: started") == 1);
    const auto serial = t.session().job_serial();
    t.send("ping 3");  // before: its handler joined the slow job here, then started the table's job
    CHECK(t.count("pong 3") == 0);
    CHECK(t.session().job_serial() == serial);  // still the slow job: the ping waits in the queue
    CHECK(t.session().busy());
    CHECK(t.wait_for("pong 3", 1));
}

TEST_CASE("exclusive jobs: a change of evaluation clears the tables in a job") {
    SessionUnderTest t;
    t.send("isready");
    (void)t.finish_job();
    REQUIRE(t.count("readyok") == 1);
    // The clear is a job that nothing is answered before (before the fix it ran on the reader's thread).
    const auto serial = t.session().job_serial();
    t.send("setoption name Eval value heuristic");
    CHECK(t.session().job_serial() == serial + 1);
    t.send("isready");
    CHECK(t.wait_for("readyok", 2));
}

TEST_CASE("exclusive jobs: a quit does not join a job that cannot be stopped, it waits for it in the queue") {
    SessionUnderTest t;
    t.send("test-slow-job 3000");  // stands for a Hash resize: deaf to its stop flag
    REQUIRE(t.count("info string test-slow-job: started") == 1);
    // Queued: the session goes on until the job has ended (before, the quit joined the job here and
    // returned Quit, after the job's 3 s on a server's network thread).
    CHECK(t.send("quit") == session::Status::Continue);
    CHECK(t.send("isready") == session::Status::Continue);  // after a waiting quit: ignored
    CHECK(t.finish_job() == session::Status::Quit);
    CHECK(t.count("readyok") == 0);
}
