// The distributed match and self-play for real (docs/scale.md): redis-server on a free loopback port, a
// coordinator and workers on the real engine; one worker is killed with SIGKILL in the middle of its work
// item and the coordinator once; the results must equal an uninterrupted local run, every game counted
// exactly once.
#include <doctest/doctest.h>

#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <thread>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "tests/match/match_harness.hpp"
#include "tools/queue/work_queue.hpp"

using namespace reversi::match_test;
using namespace std::chrono_literals;

namespace {

bool have_redis() {
    return std::system("command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1") == 0;
}

int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

// The lines redis-cli prints for a command (raw output: one element per line).
std::vector<std::string> redis_cli(int port, const std::string& command, const std::string& password = "") {
    std::vector<std::string> lines;
    const std::string auth = password.empty() ? "" : " --no-auth-warning -a " + password;
    const std::string cmd = "redis-cli -p " + std::to_string(port) + auth + " " + command + " 2>/dev/null";
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return lines;
    char buf[65536];
    while (std::fgets(buf, sizeof buf, p)) {
        std::string l(buf);
        while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
        lines.push_back(l);
    }
    ::pclose(p);
    return lines;
}

// A redis-server child without persistence (with a password when one is given: requirepass), stopped at
// the end of the test. The free port is found before the server binds it: when another process took it
// meanwhile (a concurrent test's server, which --daemonize would not report), the server answering there
// is not ours (its folder differs) and another port is tried.
struct RedisServer {
    int port = 0;
    std::string dir;
    std::string password;
    explicit RedisServer(const std::string& d, const std::string& pass = "") : dir(d), password(pass) {
        const std::string real_dir = fs::canonical(dir).string();
        for (int attempt = 0; attempt < 5 && port == 0; ++attempt) {
            const int p = free_port();
            const std::string cmd = "redis-server --port " + std::to_string(p) +
                                    " --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --dir " + dir +
                                    " --pidfile " + dir + "/redis.pid --logfile " + dir + "/redis.log" +
                                    (password.empty() ? "" : " --requirepass " + password);
            REQUIRE(std::system(cmd.c_str()) == 0);
            for (int i = 0; i < 200 && redis_cli(p, "PING", password) != std::vector<std::string>{"PONG"}; ++i)
                std::this_thread::sleep_for(20ms);
            if (redis_cli(p, "CONFIG GET dir", password) == std::vector<std::string>{"dir", real_dir}) port = p;
        }
        REQUIRE_MESSAGE(port != 0, "no redis-server of this test answered (see " << dir << "/redis.log)");
    }
    ~RedisServer() { redis_cli(port, "SHUTDOWN NOSAVE", password); }
};

// An environment variable set for the children started while it lives.
struct ScopedEnv {
    std::string name;
    ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) {
        ::setenv(name.c_str(), value.c_str(), 1);
    }
    ~ScopedEnv() { ::unsetenv(name.c_str()); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;
};

// (game, worker) of every entry of the results stream, in order.
std::vector<std::pair<int, std::string>> results_stream(int port, const std::string& name) {
    std::vector<std::pair<int, std::string>> out;
    const auto lines = redis_cli(port, "XRANGE " + name + ":results - +");
    int game = -1;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        if (lines[i] == "game") game = std::atoi(lines[i + 1].c_str());
        if (lines[i] == "worker") out.emplace_back(game, lines[i + 1]);
    }
    return out;
}

// Work items the consumer holds (XPENDING's extended form: id, consumer, idle, deliveries per entry).
int pending_of(int port, const std::string& name, const std::string& consumer, const std::string& items = "pairs") {
    return static_cast<int>(redis_cli(port, "XPENDING " + name + ":" + items + " workers - + 100 " + consumer).size() /
                            4);
}

std::vector<std::string> sorted_results(const std::string& log) {
    std::vector<std::string> lines;
    for (const auto& l : read_lines(log)) {
        if (!l.empty() && l[0] != '#') lines.push_back(l);
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

// A small match of engine (depth 2) against engine (depth 1) from random 8-ply openings.
std::vector<std::string> small_match(const std::string& engine, const std::string& seed, const std::string& games) {
    return {"--engine",
            "name=a",
            engine,
            "depth=2",
            "--engine",
            "name=b",
            engine,
            "depth=1",
            "--random-openings",
            "8",
            "--balance-depth",
            "0",
            "--seed",
            seed,
            "--games",
            games,
            "--progress",
            "off"};
}

bool exited(pid_t pid) {
    int status = 0;
    return ::waitpid(pid, &status, WNOHANG) == pid;
}

// Whether `pid` exits within `limit`; killed (SIGKILL) when it does not.
bool wait_exit(pid_t pid, std::chrono::seconds limit) {
    for (auto deadline = std::chrono::steady_clock::now() + limit; std::chrono::steady_clock::now() < deadline;) {
        if (exited(pid)) return true;
        std::this_thread::sleep_for(20ms);
    }
    ::kill(pid, SIGKILL);
    return false;
}

// A complete legal game (the lowest legal square at every move, passes implied) and its black discs as a
// WTHOR record counts them: a game of no XOT opening (they all start with f5).
std::pair<std::string, int> lowest_square_game() {
    reversi::Position pos = reversi::start_position();
    std::string moves;
    while (!pos.is_over()) {
        if (pos.must_pass()) {
            pos = pos.pass();
            continue;
        }
        const auto m = static_cast<reversi::Move>(std::countr_zero(pos.moves()));
        moves += reversi::move_to_string(m);
        pos = pos.play(m);
    }
    const int black = pos.side == reversi::Color::Black ? pos.final_score() : -pos.final_score();
    return {moves, (black + 64) / 2};
}

// A scratch folder with a redis-server in it, and the address of a queue named for this process.
struct QueueSetup {
    std::string dir;
    RedisServer redis;
    std::string name;
    std::string queue;
    QueueSetup(const std::string& scratch, const std::string& prefix)
        : dir(scratch_dir(scratch)),
          redis(dir),
          name(prefix + std::to_string(::getpid())),
          queue("redis://127.0.0.1:" + std::to_string(redis.port) + "/" + name) {}
};

}  // namespace

TEST_CASE("distributed match: a worker killed mid-pair and a coordinator killed once lose and double nothing") {
    if (!have_redis()) {
        MESSAGE("skipped: redis-server and redis-cli are not installed (apt-get install redis-server)");
        return;
    }
    const std::string dir = scratch_dir("distributed");
    RedisServer redis(dir);
    const std::string name = "t" + std::to_string(::getpid());
    const std::string engine = "cmd=" + engine_binary();
    const std::vector<std::string> match = {"--engine",
                                            "name=a",
                                            engine,
                                            "depth=5",
                                            "--engine",
                                            "name=b",
                                            engine,
                                            "depth=4",
                                            "--random-openings",
                                            "8",
                                            "--balance-depth",
                                            "0",
                                            "--seed",
                                            "3",
                                            "--games",
                                            "24",
                                            "--progress",
                                            "off",
                                            "--json"};
    auto with = [&match](std::vector<std::string> extra) {
        extra.insert(extra.begin(), match.begin(), match.end());
        return extra;
    };
    const std::string queue = "redis://127.0.0.1:" + std::to_string(redis.port) + "/" + name;

    fs::create_directories(dir + "/local");
    const RunResult local = run_match(with({"--out", dir + "/local/m", "--concurrency", "2"}), dir + "/local");
    REQUIRE_MESSAGE(local.exit_code == 0, local.err);

    std::vector<std::string> dirs;
    for (const char* d : {"coord", "coord2", "w1", "w2", "w3"}) {
        dirs.push_back(dir + "/" + d);
        fs::create_directories(dirs.back());
    }
    const auto coordinator_args = [&](bool resume) {
        auto a = with({"--out", dir + "/dist", "--queue", queue, "--log-level", "info"});
        if (resume) a.push_back("--resume");
        return a;
    };
    pid_t coordinator = start_match(coordinator_args(false), dirs[0]);
    std::vector<pid_t> workers;
    const auto start_worker = [&](int w) {
        workers.push_back(start_match({"worker", "--queue", queue, "--concurrency", "1", "--reclaim-after", "2",
                                       "--consumer", "w" + std::to_string(w)},
                                      dirs[static_cast<std::size_t>(w) + 1]));
    };
    // Worker 1 starts alone, so that no other worker can play every pair before it is caught in the
    // middle of one (docs/scale.md); workers 2 and 3 start once it is killed and reclaim its pair.
    start_worker(1);
    // Freeze worker 1 now and then; kill it when it holds a pair whose first game it has reported and whose
    // second it has not: in the middle of the pair.
    int killed_pair_game = -1;
    for (auto deadline = std::chrono::steady_clock::now() + 60s;
         killed_pair_game < 0 && std::chrono::steady_clock::now() < deadline;) {
        ::kill(workers[0], SIGSTOP);
        if (pending_of(redis.port, name, "w1") == 1) {
            const auto results = results_stream(redis.port, name);
            for (const auto& [game, worker] : results) {
                const bool second_done =
                    std::any_of(results.begin(), results.end(), [g = game](const auto& r) { return r.first == g + 1; });
                if (worker == "w1" && game % 2 == 0 && !second_done) killed_pair_game = game;
            }
        }
        if (killed_pair_game >= 0) {
            ::kill(workers[0], SIGKILL);
        } else {
            ::kill(workers[0], SIGCONT);
            std::this_thread::sleep_for(15ms);
        }
    }
    REQUIRE_MESSAGE(killed_pair_game >= 0, "worker 1 was never seen in the middle of a pair");
    (void)wait_match(workers[0], dirs[2]);
    start_worker(2);
    start_worker(3);
    // The coordinator, killed once after it has recorded a few games, then resumed.
    for (auto deadline = std::chrono::steady_clock::now() + 60s;
         sorted_results(dir + "/dist.log").size() < 6 && std::chrono::steady_clock::now() < deadline;)
        std::this_thread::sleep_for(20ms);
    ::kill(coordinator, SIGKILL);
    (void)wait_match(coordinator, dirs[0]);
    const std::size_t before_resume = sorted_results(dir + "/dist.log").size();
    CHECK(before_resume >= 6);
    coordinator = start_match(coordinator_args(true), dirs[1]);
    bool done = false;
    for (auto deadline = std::chrono::steady_clock::now() + 120s;
         !done && std::chrono::steady_clock::now() < deadline;) {
        done = exited(coordinator);
        if (!done) std::this_thread::sleep_for(50ms);
    }
    if (!done) ::kill(coordinator, SIGKILL);
    REQUIRE(done);
    for (std::size_t w = 1; w < workers.size(); ++w) {
        for (int i = 0; i < 200 && !exited(workers[w]); ++i) std::this_thread::sleep_for(50ms);
        ::kill(workers[w], SIGKILL);
    }

    // Every game once, with the results of the uninterrupted local match.
    const auto dist = sorted_results(dir + "/dist.log");
    CHECK(dist.size() == 24);
    CHECK(dist == sorted_results(dir + "/local/m.log"));
    CHECK(read_lines(dir + "/dist.ggf").size() == 24);
    const std::string json = read_text(dir + "/dist.json");
    const std::string local_json = read_text(dir + "/local/m.json");
    for (const char* key : {"games", "wins", "draws", "losses", "pentanomial", "average_disc_margin"})
        CHECK_MESSAGE(json_field(json, key) == json_field(local_json, key), key);
    CHECK(json_field(json, "complete") == "true");
    // The killed worker's pair was played again by another worker, and its repeated game ignored.
    const auto results = results_stream(redis.port, name);
    CHECK(std::count_if(results.begin(), results.end(),
                        [&](const auto& r) { return r.first == killed_pair_game + 1 && r.second != "w1"; }) >= 1);
    CHECK(results.size() > 24);
    CHECK(read_text(dirs[1] + "/stderr.txt").find("already recorded were ignored") != std::string::npos);
}

TEST_CASE("distributed match: bad queue addresses and a missing match are clear errors") {
    const std::string dir = scratch_dir("distributed-errors");
    const std::string engine = "cmd=" + engine_binary();
    const RunResult bad = run_match({"--engine", "name=a", engine, "depth=1", "--engine", "name=b", engine, "depth=1",
                                     "--queue", "http://x/y", "--out", dir + "/m"},
                                    dir);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("redis://HOST:PORT/NAME") != std::string::npos);
    const RunResult no_name = run_match({"worker", "--queue", "redis://127.0.0.1:1/"}, dir);
    CHECK(no_name.exit_code == 2);
    CHECK(no_name.err.find("needs a name") != std::string::npos);
    const RunResult refused = run_match({"worker", "--queue", "redis://127.0.0.1:1/x"}, dir);
    CHECK(refused.exit_code == 1);
    CHECK(refused.err.find("cannot connect to redis") != std::string::npos);
    // A coordinator that cannot reach Redis leaves no results files (before, empty ones that a second try
    // then refused without --resume).
    const RunResult coordinator = run_match({"--engine", "name=a", engine, "depth=1", "--engine", "name=b", engine,
                                             "depth=1", "--queue", "redis://127.0.0.1:1/x", "--out", dir + "/c"},
                                            dir);
    CHECK(coordinator.exit_code == 1);
    CHECK(coordinator.err.find("cannot connect to redis") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/c.log"));
    CHECK_FALSE(fs::exists(dir + "/c.ggf"));
    // An argument holding the queue's separator byte would not reach the workers as it is: refused.
    const RunResult separator =
        run_match({"--engine", "name=a", std::string("option.Note=a\x1f") + "b", engine, "depth=1", "--engine",
                   "name=b", engine, "depth=1", "--queue", "redis://127.0.0.1:1/x", "--out", dir + "/s"},
                  dir);
    CHECK(separator.exit_code == 2);
    CHECK(separator.err.find("0x1f") != std::string::npos);
}

TEST_CASE("distributed self-play: a worker killed mid-batch and a restarted coordinator give the local file") {
    if (!have_redis()) {
        MESSAGE("skipped: redis-server and redis-cli are not installed (apt-get install redis-server)");
        return;
    }
    if (!fs::exists(REVERSI_SHARED_DATA "/openings/xot/openingssmall.txt")) {
        MESSAGE("skipped: ../shared/data is absent (the XOT openings)");
        return;
    }
    const std::string dir = scratch_dir("distributed-selfplay");
    RedisServer redis(dir);
    const std::string train = std::string(REVERSI_BINARY_DIR) + "/tools/reversi-train";
    const std::string name = "s" + std::to_string(::getpid());
    const std::string queue = "redis://127.0.0.1:" + std::to_string(redis.port) + "/" + name;
    const std::vector<std::string> job = {"selfplay",
                                          "--games",
                                          "40",
                                          "--depth",
                                          "5",
                                          "--exact-from",
                                          "12",
                                          "--seed",
                                          "9",
                                          "--openings",
                                          REVERSI_SHARED_DATA "/openings/xot/openingssmall.txt",
                                          "--log-level",
                                          "info"};
    const auto run = [&job](const std::vector<std::string>& extra) {
        std::vector<std::string> a = job;
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const auto start_train = [&](const std::vector<std::string>& args, const std::string& sub) {
        fs::create_directories(dir + "/" + sub);
        return start_program(train, args, dir + "/" + sub);
    };
    REQUIRE(wait_exit(start_train(run({"--out", dir + "/local.wtb"}), "local"), 120s));
    pid_t coordinator = start_train(run({"--out", dir + "/dist.wtb", "--queue", queue}), "coord");
    const pid_t w1 = start_train({"selfplay-worker", "--queue", queue, "--consumer", "w1"}, "w1");
    // Worker 1, frozen now and then, is killed once it holds a batch and has reported a game of it.
    bool killed = false;
    for (auto deadline = std::chrono::steady_clock::now() + 60s;
         !killed && std::chrono::steady_clock::now() < deadline;) {
        ::kill(w1, SIGSTOP);
        const auto results = redis_cli(redis.port, "XLEN " + name + ":results");
        killed = pending_of(redis.port, name, "w1", "batches") == 1 && !results.empty() &&
                 std::atoi(results[0].c_str()) % 10 != 0;
        ::kill(w1, killed ? SIGKILL : SIGCONT);
        if (!killed) std::this_thread::sleep_for(15ms);
    }
    REQUIRE_MESSAGE(killed, "worker 1 was never seen in the middle of a batch");
    CHECK(wait_exit(w1, 10s));
    ::kill(coordinator, SIGKILL);
    CHECK(wait_exit(coordinator, 10s));
    // A legal, finished game that is not game 0 (another opening), reported as game 0: refused (before, any
    // legal game was taken for the game it claimed to be).
    const auto [moves, score] = lowest_square_game();
    REQUIRE(!redis_cli(redis.port, "XADD " + name + ":results '*' game 0 moves " + moves + " score " +
                                       std::to_string(score) + " worker evil")
                 .empty());
    coordinator = start_train(run({"--out", dir + "/dist.wtb", "--queue", queue}), "coord2");
    const pid_t w2 = start_train(
        {"selfplay-worker", "--queue", queue, "--consumer", "w2", "--reclaim-after", "1", "--threads", "2"}, "w2");
    REQUIRE(wait_exit(coordinator, 120s));
    CHECK(wait_exit(w2, 30s));
    CHECK(read_text(dir + "/dist.wtb") == read_text(dir + "/local.wtb"));
    CHECK(read_text(dir + "/dist.wtb").size() == 16 + 40 * 68);
    CHECK(read_text(dir + "/coord2/stderr.txt").find("(continuing)") != std::string::npos);
    CHECK(read_text(dir + "/coord2/stderr.txt").find("from evil ignored: it does not start with the game's opening") !=
          std::string::npos);

    // Every result of game 7 deleted from the stream: the coordinator, continuing the finished job, queues
    // game 7's batch again once every batch has been played (before, it waited for ever).
    const auto results = redis_cli(redis.port, "XRANGE " + name + ":results - +");
    int deleted = 0;
    for (std::size_t i = 0; i + 2 < results.size(); ++i) {
        if (results[i + 1] == "game" && results[i + 2] == "7")
            deleted += std::atoi(redis_cli(redis.port, "XDEL " + name + ":results " + results[i]).at(0).c_str());
    }
    REQUIRE(deleted >= 1);
    coordinator = start_train(run({"--out", dir + "/dist2.wtb", "--queue", queue}), "coord3");
    for (int i = 0; i < 1000 && read_text(dir + "/coord3/stderr.txt").find("queued again") == std::string::npos &&
                    !exited(coordinator);
         ++i)
        std::this_thread::sleep_for(20ms);
    CHECK(read_text(dir + "/coord3/stderr.txt").find("1 games have no result") != std::string::npos);
    const pid_t w3 = start_train({"selfplay-worker", "--queue", queue, "--consumer", "w3"}, "w3");
    REQUIRE(wait_exit(coordinator, 120s));
    CHECK(wait_exit(w3, 30s));
    CHECK(read_text(dir + "/dist2.wtb") == read_text(dir + "/local.wtb"));
}

TEST_CASE("distributed match: more games on resume, and a results entry with a line break is refused") {
    if (!have_redis()) {
        MESSAGE("skipped: redis-server and redis-cli are not installed (apt-get install redis-server)");
        return;
    }
    const QueueSetup setup("distributed-grow", "g");
    const std::string& dir = setup.dir;
    const RedisServer& redis = setup.redis;
    const std::string& name = setup.name;
    const std::string& queue = setup.queue;
    const std::string engine = "cmd=" + engine_binary();
    const auto match = [&](const std::string& games, std::vector<std::string> extra) {
        std::vector<std::string> a = small_match(engine, "5", games);
        a.insert(a.end(), {"--out", dir + "/dist", "--queue", queue});
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    const auto start_in = [&](const std::vector<std::string>& args, const std::string& sub) {
        fs::create_directories(dir + "/" + sub);
        return start_match(args, dir + "/" + sub);
    };
    const auto worker = [&](const std::string& sub) {
        return start_in({"worker", "--queue", queue, "--concurrency", "1", "--consumer", sub}, sub);
    };

    // Six games; once the queue holds them, a hand-made results entry whose log field has a second line.
    const pid_t first = start_in(match("6", {}), "c1");
    for (int i = 0; i < 500 && redis_cli(redis.port, "GET " + name + ":fingerprint").front().empty(); ++i)
        std::this_thread::sleep_for(20ms);
    const std::string inject =
        "printf 'game 0 opening 0 black 0 discs 64 reason normal faulty -1 detail x\\ngame 1 "
        "opening 0 black 1 discs -64 reason normal faulty -1 detail injected' | redis-cli -p " +
        std::to_string(redis.port) + " -x XADD " + name +
        ":results '*' game 0 ggf '(;GM[Othello];)' worker evil log >/dev/null";
    REQUIRE(std::system(inject.c_str()) == 0);
    // A one-line entry for game 1 with another opening than its scheduled one (5, not 0): refused too.
    const std::string other_opening = "redis-cli -p " + std::to_string(redis.port) + " XADD " + name +
                                      ":results '*' game 1 ggf '(;GM[Othello];)' worker evil2 log 'game 1 opening 5 "
                                      "black 1 discs -64 reason normal faulty -1 detail other' >/dev/null";
    REQUIRE(std::system(other_opening.c_str()) == 0);
    // A pair written by hand whose game number is not a number ("1x" was read as 1): skipped by the worker.
    const std::string bad_pair =
        "redis-cli -p " + std::to_string(redis.port) + " XADD " + name + ":pairs '*' games 1x >/dev/null";
    REQUIRE(std::system(bad_pair.c_str()) == 0);
    const pid_t w1 = worker("w1");
    REQUIRE(wait_exit(first, 120s));
    CHECK(wait_exit(w1, 30s));
    CHECK(sorted_results(dir + "/dist.log").size() == 6);
    CHECK(read_text(dir + "/dist.log").find("injected") == std::string::npos);
    CHECK(read_text(dir + "/c1/stderr.txt").find("from worker evil is not a game of this match") != std::string::npos);
    CHECK(read_text(dir + "/c1/stderr.txt").find("from worker evil2 is not a game of this match") != std::string::npos);
    CHECK(read_text(dir + "/dist.log").find("detail other") == std::string::npos);
    CHECK(read_text(dir + "/w1/stderr.txt").find("names no games; skipped") != std::string::npos);

    // The finished match resumed with ten games: the coordinator adds the new pairs and clears the stop
    // flag, and a new worker plays them (before, it found the match over and the coordinator waited).
    // A worker started before the coordinator, so that it finds the old stop flag.
    const pid_t w2 = worker("w2");
    for (int i = 0; i < 500 && read_text(dir + "/w2/stderr.txt").find("is over; waiting") == std::string::npos; ++i)
        std::this_thread::sleep_for(20ms);
    CHECK(read_text(dir + "/w2/stderr.txt").find("is over; waiting") != std::string::npos);
    const pid_t second = start_in(match("10", {"--resume", "--log-level", "info"}), "c2");
    // It waits for the coordinator to clear the flag (a work-queue Job's worker that exited at once would
    // end the Job).
    CHECK(wait_exit(second, 120s));
    CHECK(wait_exit(w2, 30s));
    CHECK(sorted_results(dir + "/dist.log").size() == 10);
    CHECK(read_text(dir + "/c2/stderr.txt").find("2 colour pairs added") != std::string::npos);
}

namespace {

// Two 6-ply openings, one transcript a line: at ply p of opening k, the (k + p + shift)-th legal move.
std::string openings_text(int shift) {
    std::string text;
    for (int k = 0; k < 2; ++k) {
        reversi::Position pos = reversi::start_position();
        for (int p = 0; p < 6; ++p) {
            std::vector<reversi::Move> legal;
            for (reversi::Bitboard b = pos.moves(); b != 0; b &= b - 1)
                legal.push_back(static_cast<reversi::Move>(std::countr_zero(b)));
            const reversi::Move m = legal[static_cast<std::size_t>(k + p + shift) % legal.size()];
            text += reversi::move_to_string(m);
            pos = pos.play(m);
        }
        text += "\n";
    }
    return text;
}

// The stream ids of the results entries of `game`.
std::vector<std::string> result_ids(int port, const std::string& name, int game) {
    std::vector<std::string> ids;
    const auto lines = redis_cli(port, "XRANGE " + name + ":results - +");
    for (std::size_t i = 0; i + 2 < lines.size(); ++i) {
        if (lines[i + 1] == "game" && lines[i + 2] == std::to_string(game)) ids.push_back(lines[i]);
    }
    return ids;
}

}  // namespace

TEST_CASE("distributed match: a result lost from the stream, or played from other openings, is played again") {
    if (!have_redis()) {
        MESSAGE("skipped: redis-server and redis-cli are not installed (apt-get install redis-server)");
        return;
    }
    const QueueSetup setup("distributed-lost", "l");
    const std::string& dir = setup.dir;
    const int port = setup.redis.port;
    const std::string engine = "cmd=" + engine_binary();
    // reversi-match started in dir/sub, its working folder (relative paths are read there).
    const auto start_in = [&](const std::vector<std::string>& args, const std::string& sub) {
        fs::create_directories(dir + "/" + sub);
        return start_program(match_binary(), args, dir + "/" + sub, true);
    };
    const auto worker = [&](const std::string& queue, const std::string& sub) {
        return start_in({"worker", "--queue", queue, "--concurrency", "1", "--consumer", sub}, sub);
    };

    // Six games, all played while the coordinator is frozen; then game 3's result is deleted from the
    // stream. Before, the coordinator waited for ever; now pair 2-3 is queued again and played.
    const pid_t coordinator = start_in(
        [&] {
            auto a = small_match(engine, "6", "6");
            a.insert(a.end(), {"--out", dir + "/dist", "--queue", setup.queue, "--log-level", "info"});
            return a;
        }(),
        "c1");
    for (int i = 0; i < 500 && redis_cli(port, "GET " + setup.name + ":fingerprint").front().empty(); ++i)
        std::this_thread::sleep_for(20ms);
    ::kill(coordinator, SIGSTOP);
    const pid_t w1 = worker(setup.queue, "w1");
    for (int i = 0; i < 3000 && result_ids(port, setup.name, 5).empty(); ++i) std::this_thread::sleep_for(20ms);
    const auto ids = result_ids(port, setup.name, 3);
    REQUIRE(ids.size() == 1);
    CHECK(redis_cli(port, "XDEL " + setup.name + ":results " + ids[0]) == std::vector<std::string>{"1"});
    ::kill(coordinator, SIGCONT);
    REQUIRE(wait_exit(coordinator, 120s));
    CHECK(wait_exit(w1, 30s));
    CHECK(sorted_results(dir + "/dist.log").size() == 6);
    CHECK(read_text(dir + "/c1/stderr.txt").find("1 games have no result although every pair was played") !=
          std::string::npos);

    // A worker whose openings file has the coordinator's name and length but other openings (a relative
    // path, read in each one's own folder): its results are refused, its pairs queued again three times,
    // then the match fails with the reason (before, its games were recorded as the scheduled ones).
    const std::string other = setup.name + "o";
    const std::string queue = "redis://127.0.0.1:" + std::to_string(port) + "/" + other;
    for (const auto& [sub, shift] : {std::pair{"c2", 0}, std::pair{"w2", 1}}) {
        fs::create_directories(dir + "/" + sub);
        std::ofstream(dir + "/" + sub + "/openings.txt") << openings_text(shift);
    }
    const pid_t second =
        start_in({"--engine", "name=a", engine, "depth=1", "--engine", "name=b", engine, "depth=1", "--openings",
                  "openings.txt", "--games", "2", "--progress", "off", "--out", dir + "/other", "--queue", queue},
                 "c2");
    const pid_t w2 = worker(queue, "w2");
    const bool failed = wait_exit(second, 120s);
    ::kill(w2, SIGKILL);
    (void)wait_match(w2, dir + "/w2");
    REQUIRE(failed);
    const std::string log = read_text(dir + "/c2/stderr.txt");
    CHECK_MESSAGE(log.find("1 work items still have no result after they were queued again 3 times; the last "
                           "results entry refused: entry ") != std::string::npos,
                  log);
    CHECK(log.find("from worker w2") != std::string::npos);
    CHECK(sorted_results(dir + "/other.log").empty());
}

TEST_CASE("distributed match: a Redis with a password, given in REVERSI_REDIS_PASSWORD") {
    if (!have_redis()) {
        MESSAGE("skipped: redis-server and redis-cli are not installed (apt-get install redis-server)");
        return;
    }
    const std::string dir = scratch_dir("distributed-auth");
    const RedisServer redis(dir, "s3cret-pw");
    const std::string queue = "redis://127.0.0.1:" + std::to_string(redis.port) + "/a" + std::to_string(::getpid());
    const std::string engine = "cmd=" + engine_binary();
    const auto match = [&](const std::string& out) {
        std::vector<std::string> a = small_match(engine, "7", "2");
        a.insert(a.end(), {"--out", dir + "/" + out, "--queue", queue});
        return a;
    };
    // Without it, and with a wrong one: clear errors, no files (Redis is reached before the files are made).
    const RunResult none = run_match(match("none"), dir);
    CHECK(none.exit_code == 1);
    CHECK_MESSAGE(none.err.find("NOAUTH Authentication required. (give its password in REVERSI_REDIS_PASSWORD)") !=
                      std::string::npos,
                  none.err);
    {
        const ScopedEnv wrong("REVERSI_REDIS_PASSWORD", "wrong");
        const RunResult r = run_match(match("wrong"), dir);
        CHECK(r.exit_code == 1);
        CHECK_MESSAGE(r.err.find("redis AUTH: WRONGPASS") != std::string::npos, r.err);
        CHECK(r.err.find("wrong") == std::string::npos);  // the password is not repeated
        CHECK(!fs::exists(dir + "/wrong.log"));
    }
    {
        const ScopedEnv user("REVERSI_REDIS_USER", "default");
        const RunResult r = run_match(match("user"), dir);
        CHECK(r.exit_code == 2);
        CHECK_MESSAGE(r.err.find("REVERSI_REDIS_USER is set without REVERSI_REDIS_PASSWORD") != std::string::npos,
                      r.err);
    }
    // With it (and the ACL user named): the coordinator and a worker play the match; the password is
    // nowhere in what the coordinator stores for its workers.
    const ScopedEnv password("REVERSI_REDIS_PASSWORD", "s3cret-pw");
    const ScopedEnv user("REVERSI_REDIS_USER", "default");
    fs::create_directories(dir + "/c");
    fs::create_directories(dir + "/w");
    const pid_t coordinator = start_match(match("dist"), dir + "/c");
    const pid_t worker = start_match({"worker", "--queue", queue, "--concurrency", "1"}, dir + "/w");
    CHECK(wait_exit(coordinator, 120s));
    CHECK(wait_exit(worker, 30s));
    CHECK(sorted_results(dir + "/dist.log").size() == 2);
    const auto args = redis_cli(redis.port, "GET a" + std::to_string(::getpid()) + ":args", redis.password);
    REQUIRE(!args.empty());
    CHECK(args.front().find("--games") != std::string::npos);
    CHECK(args.front().find("s3cret") == std::string::npos);
}

TEST_CASE("distributed match: of two coordinators racing on one empty queue, one builds it, the other is refused") {
    if (!have_redis()) {
        MESSAGE("skipped: redis-server and redis-cli are not installed (apt-get install redis-server)");
        return;
    }
    const QueueSetup setup("distributed-race", "r");
    const std::string& dir = setup.dir;
    const RedisServer& redis = setup.redis;
    const std::string& name = setup.name;
    const std::string& queue = setup.queue;
    const std::string engine = "cmd=" + engine_binary();
    // Two different matches (seeds 3 and 4), large enough that building a queue takes a while.
    const auto coordinator = [&](const std::string& seed, const std::string& games, const std::string& sub,
                                 std::vector<std::string> extra) {
        fs::create_directories(dir + "/" + sub);
        std::vector<std::string> args = small_match(engine, seed, games);
        args.insert(args.end(), {"--out", dir + "/m" + seed, "--queue", queue});
        args.insert(args.end(), extra.begin(), extra.end());
        return start_match(args, dir + "/" + sub);
    };
    const pid_t a = coordinator("3", "40000", "c3", {});
    const pid_t b = coordinator("4", "60000", "c4", {});
    // The loser exits with the other match's fingerprint named; the winner waits for workers.
    int exits = 0;
    pid_t loser = 0;
    for (auto deadline = std::chrono::steady_clock::now() + 60s;
         exits == 0 && std::chrono::steady_clock::now() < deadline;) {
        if (exited(a)) {
            loser = a;
            ++exits;
        }
        if (exited(b)) {
            loser = b;
            ++exits;
        }
        std::this_thread::sleep_for(20ms);
    }
    REQUIRE(exits == 1);
    const pid_t winner = loser == a ? b : a;
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(exited(winner));
    ::kill(winner, SIGKILL);
    (void)wait_match(winner, dir);
    const std::string loser_dir = dir + (loser == a ? "/c3" : "/c4");
    CHECK(read_text(loser_dir + "/stderr.txt").find("holds another job") != std::string::npos);
    // The queue holds the winner's pairs alone (before, both matches' pairs, mixed).
    const auto length = redis_cli(redis.port, "XLEN " + name + ":pairs");
    REQUIRE(!length.empty());
    const int pairs = winner == a ? 20000 : 30000;
    CHECK(std::atoi(length[0].c_str()) == pairs);

    // The winner resumed with one more pair: resume_job reads the stream in pages of 10,000 items and adds
    // only the missing pair (a reader that stopped after its first page would add 10,000 or 20,000).
    const std::string seed = winner == a ? "3" : "4";
    const pid_t resumed =
        coordinator(seed, std::to_string(2 * pairs + 2), "resumed", {"--resume", "--log-level", "info"});
    for (int i = 0; i < 3000 && read_text(dir + "/resumed/stderr.txt").find("pairs added") == std::string::npos &&
                    !exited(resumed);
         ++i)
        std::this_thread::sleep_for(20ms);
    ::kill(resumed, SIGKILL);
    (void)wait_match(resumed, dir);
    const std::string log = read_text(dir + "/resumed/stderr.txt");
    CHECK_MESSAGE(log.find(" 1 colour pairs added") != std::string::npos, log);
    CHECK(std::atoi(redis_cli(redis.port, "XLEN " + name + ":pairs").at(0).c_str()) == pairs + 1);
}

TEST_CASE("queue: the heartbeat reconnects when its connection is killed, so a held item is never reclaimed") {
    if (!have_redis()) {
        MESSAGE("skipped: redis-server and redis-cli are not installed (apt-get install redis-server)");
        return;
    }
    const QueueSetup setup("heartbeat", "h");
    const int port = setup.redis.port;
    const std::string items = setup.name + ":pairs";
    REQUIRE(!redis_cli(port, "XGROUP CREATE " + items + " workers $ MKSTREAM").empty());
    REQUIRE(!redis_cli(port, "XADD " + items + " '*' games 0,1").empty());
    const auto read = redis_cli(port, "XREADGROUP GROUP workers w COUNT 1 STREAMS " + items + " '>'");
    REQUIRE(read.size() == 4);  // stream, id, field, value
    const auto address = reversi::queue::parse_queue_url(setup.queue);
    REQUIRE(address);
    // Reclaimed after 400 ms without a beat; the heartbeat beats every 100 ms.
    reversi::queue::Heartbeat heartbeat(*address, reversi::queue::QueueKeys(setup.name, "pairs"), "w", 400ms);
    heartbeat.hold(read[1], true);
    const auto idle_ms = [&] {
        const auto pending = redis_cli(port, "XPENDING " + items + " workers - + 10");  // id, consumer, idle, count
        return pending.size() == 4 ? std::atoi(pending[2].c_str()) : -1;
    };
    // A beat after the kill shows as an idle time shorter than the time since the kill (without one, the
    // idle time only grows: at least 500 ms from 500 ms after the kill on).
    for (int kill = 0; kill < 3; ++kill) {
        std::this_thread::sleep_for(300ms);
        CHECK(redis_cli(port, "CLIENT KILL TYPE normal").size() == 1);  // the heartbeat's connection
        std::this_thread::sleep_for(500ms);
        int idle = idle_ms();
        for (int i = 0; i < 100 && !(idle >= 0 && idle < 300); ++i) {
            std::this_thread::sleep_for(50ms);
            idle = idle_ms();
        }
        CHECK_MESSAGE((idle >= 0 && idle < 300), "idle " << idle << " ms after kill " << kill);  // before: growing
    }
}
