// The work a command asks for that takes time in proportion to Hash (allocating or clearing the tables)
// runs as an exclusive job, never on the thread that reads the lines, which for a network session is the
// server's one network thread; and a quit does not join a job that cannot be stopped. Checked in process,
// on a dispatch::Session whose sink and job notifications the test holds: a reply that comes from a job
// is only sent when the test calls resume(), so the order is deterministic.
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
    // A new Hash size resizes both tables in one job: isready waits behind it, then answers at once.
    t.send("setoption name Hash value 8");
    t.send("isready");
    CHECK(t.count("readyok") == 2);
    CHECK(t.finish_job() == session::Status::Continue);
    CHECK(t.count("readyok") == 3);
    CHECK(!t.session().busy());
}

TEST_CASE("exclusive jobs: a session with a large Hash gets its tables from a job, its first commands wait") {
    static_assert(session::kStartHashMiB == 16);
    SessionUnderTest t(48);  // created with 16 MiB tables; the job makes them 48
    t.send("isready");
    CHECK(t.count("readyok") == 0);
    CHECK(t.finish_job() == session::Status::Continue);  // the resize (the solver's table does not exist yet)
    CHECK(t.count("readyok") == 0);
    CHECK(t.finish_job() == session::Status::Continue);  // isready's job: the solver's table
    CHECK(t.count("readyok") == 1);
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

TEST_CASE("exclusive jobs: a change of evaluation clears the tables in a job") {
    SessionUnderTest t;
    t.send("isready");
    (void)t.finish_job();
    REQUIRE(t.count("readyok") == 1);
    // The clear is a job that nothing is answered before: isready waits for it (before the fix it ran
    // on the reader's thread and readyok came at once).
    t.send("setoption name Eval value heuristic");
    t.send("isready");
    CHECK(t.count("readyok") == 1);
    CHECK(t.finish_job() == session::Status::Continue);
    CHECK(t.count("readyok") == 2);
}

TEST_CASE("exclusive jobs: a quit does not join a job that cannot be stopped, it waits for it in the queue") {
    SessionUnderTest t;
    t.send("test-slow-job 1500");  // stands for a Hash resize: deaf to its stop flag
    REQUIRE(t.count("info string test-slow-job: started") == 1);
    // Queued: the session goes on until the job has ended (before, the quit joined the job here and
    // returned Quit, after the job's 1.5 s on a server's network thread).
    CHECK(t.send("quit") == session::Status::Continue);
    CHECK(t.send("isready") == session::Status::Continue);  // after a waiting quit: ignored
    CHECK(t.finish_job() == session::Status::Quit);
    CHECK(t.count("readyok") == 0);
}
