// End-to-end tests of reversi-engine --listen: independent sessions over loopback TCP, the server's limits,
// disconnects and graceful shutdown.
#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <random>
#include <thread>

#include "engine_process.hpp"
#include "tests/support/text_checks.hpp"

using namespace reversi::testing;

namespace {

std::string board_line(LineChannel& c) {
    c.send("d");
    for (const auto& l : c.read_until("moves:")) {
        if (starts_with(l, "board: ")) return l;
    }
    return "";
}

}  // namespace

TEST_CASE("tcp sessions are independent and answer the same protocol") {
    ServerProcess server;
    LineChannel a = server.connect();
    LineChannel b = server.connect();
    a.send("uci");
    CHECK(!a.read_until("uciok").empty());
    a.send("position startpos moves f5 d6");
    b.send("position startpos moves c4");
    CHECK(board_line(a) != board_line(b));
    a.send("setoption name MoveOverhead value 77");
    b.send("uci");
    bool b_default = false;
    for (const auto& l : b.read_until("uciok"))
        b_default |= starts_with(l, "option name MoveOverhead type spin default 30 ");
    CHECK(b_default);
    a.send("go infinite");
    b.send("go depth 3");
    CHECK(!b.read_until("bestmove ").empty());
    a.send("isready");
    const auto lines = a.read_until("readyok");
    REQUIRE(!lines.empty());
    CHECK(std::none_of(lines.begin(), lines.end(), [](const auto& l) { return starts_with(l, "bestmove"); }));
    a.send("stop");
    CHECK(!a.read_until("bestmove ").empty());
    a.send("quit");
    CHECK(a.wait_closed());
}

TEST_CASE("tcp go and stop at random moments give exactly one bestmove per go") {
    ServerProcess server;
    LineChannel c = server.connect();
    std::mt19937 rng(99);
    int bestmoves = 0;
    for (int i = 0; i < 30; ++i) {
        c.send(i % 2 ? "go infinite" : "go depth 60");
        std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 15));
        c.send("stop");
        const auto lines = c.read_until("bestmove ", 10s);
        REQUIRE(!lines.empty());
        bestmoves += 1;
    }
    c.send("isready");
    const auto tail = c.read_until("readyok");
    REQUIRE(!tail.empty());
    CHECK(std::none_of(tail.begin(), tail.end(), [](const auto& l) { return starts_with(l, "bestmove"); }));
    CHECK(bestmoves == 30);
}

TEST_CASE("tcp overlong line gets an error line and the connection is closed") {
    ServerProcess server({"--max-line", "512"});
    LineChannel c = server.connect();
    c.send(std::string(2000, 'a'));
    auto l = c.read_line();
    REQUIRE(l);
    CHECK(starts_with(*l, "info string error: line longer than 512 bytes"));
    CHECK(c.wait_closed());
    LineChannel d = server.connect();  // the server keeps serving
    d.send("isready");
    CHECK(d.read_line() == "readyok");
}

TEST_CASE("tcp garbage input is answered with errors and the session keeps working") {
    ServerProcess server;
    LineChannel c = server.connect();
    std::mt19937 rng(3);
    std::string garbage;
    for (int i = 0; i < 3000; ++i) garbage += static_cast<char>(rng() % 256);
    c.send_raw(garbage + "\n");
    c.send("go depth x");
    c.send("position startpos moves f5 f5");
    c.send("isready");
    const auto lines = c.read_until("readyok");
    REQUIRE(!lines.empty());
    CHECK(std::count_if(lines.begin(), lines.end(),
                        [](const auto& l) { return starts_with(l, "info string error: go depth"); }) == 1);
    CHECK(std::count_if(lines.begin(), lines.end(),
                        [](const auto& l) { return l.find("move 2 'f5'") != std::string::npos; }) == 1);
}

TEST_CASE("tcp idle timeout closes a silent client with a message") {
    ServerProcess server({"--idle-timeout", "1"});
    LineChannel c = server.connect();
    auto l = c.read_line(5s);
    REQUIRE(l);
    CHECK(starts_with(*l, "info string error: idle for 1 s"));
    CHECK(c.wait_closed());
}

TEST_CASE("tcp a full server tells the new client and closes it") {
    ServerProcess server({"--max-sessions", "2"});
    LineChannel a = server.connect();
    LineChannel b = server.connect();
    a.send("isready");
    CHECK(a.read_line() == "readyok");
    b.send("isready");
    CHECK(b.read_line() == "readyok");
    LineChannel c = server.connect();
    auto l = c.read_line();
    REQUIRE(l);
    CHECK(starts_with(*l, "info string error: server is full (2 sessions)"));
    CHECK(c.wait_closed());
    a.send("quit");
    CHECK(a.wait_closed());
    std::this_thread::sleep_for(100ms);
    LineChannel d = server.connect();  // a slot is free again
    d.send("isready");
    const auto reply = d.read_line();
    CHECK_MESSAGE(reply == "readyok", reply.value_or("(nothing)"));
}

TEST_CASE("tcp memory budget limits sessions and Hash") {
    // The server keeps 68 MiB for itself; a session counts 2 x Hash + 4 (search table, endgame solver
    // table, the rest of its state): two sessions of Hash 16 take 68 + 72 of 152, leaving 12.
    ServerProcess server({"--max-memory", "152", "--hash", "16"});
    LineChannel a = server.connect();
    LineChannel b = server.connect();
    b.send("isready");
    CHECK(b.read_line() == "readyok");
    LineChannel c = server.connect();
    auto l = c.read_line();
    REQUIRE(l);
    CHECK(l->find("memory budget") != std::string::npos);
    CHECK(l->find("needs 36 = 2 x Hash 16 + 4") != std::string::npos);
    a.send("setoption name Hash value 32");  // 2 x 16 = 32 more MiB: only 12 are left
    l = a.read_line();
    REQUIRE(l);
    CHECK(starts_with(*l, "info string error: setoption Hash: 32 MiB refused"));
    a.send("setoption name Hash value 23");  // 2 x 7 = 14 more MiB: only 12 are left
    l = a.read_line();
    REQUIRE(l);
    CHECK(l->find("refused") != std::string::npos);
    a.send("setoption name Hash value 22");  // 2 x 6 = 12 more MiB fit exactly
    a.send("isready");
    CHECK(a.read_line() == "readyok");
    // The tables are resized by a job (not on the network thread); its accounting holds: the 12 MiB stay
    // reserved (one more MiB of Hash is refused), and a smaller table gives its MiB back (a new session fits).
    a.send("setoption name Hash value 23");
    l = a.read_line();
    REQUIRE(l);
    CHECK_MESSAGE(l->find("refused: it needs 2 MiB more (2 x Hash) and the server's memory budget has 0 MiB left") !=
                      std::string::npos,
                  *l);
    a.send("setoption name Hash value 1");  // 2 x 21 = 42 MiB back
    a.send("go depth 6");
    CHECK(!a.read_until("bestmove ").empty());
    LineChannel d = server.connect();
    d.send("isready");
    CHECK(d.read_line() == "readyok");
}

TEST_CASE("tcp bench's own tables come out of the memory budget while it runs") {
    // 68 MiB for the server and 6 for a session of Hash 1 leave 36 of 110: exactly what bench's tables
    // count (2 x its Hash 16 + 4). They come back when it ends, so a second bench fits too.
    ServerProcess server({"--max-memory", "110", "--hash", "1"});
    LineChannel a = server.connect();
    for (int i = 0; i < 2; ++i) {
        a.send("bench 1");
        CHECK(!a.read_until("bench positions ").empty());
    }
    LineChannel b = server.connect();  // 6 MiB more: 30 left
    b.send("isready");
    CHECK(b.read_line() == "readyok");
    a.send("bench 1");
    const auto l = a.read_line();
    REQUIRE(l);
    CHECK_MESSAGE(starts_with(*l, "info string error: bench: server memory budget exhausted (30 MiB left"), *l);
    a.send("isready");
    CHECK(a.read_line() == "readyok");
}

TEST_CASE("tcp a client that disconnects mid-search has its search stopped and freed") {
    ServerProcess server;
    {
        // One search first, so that threads a runtime starts once (ThreadSanitizer's) are counted as idle.
        LineChannel warm = server.connect();
        warm.send("go depth 1");
        REQUIRE(!warm.read_until("bestmove ").empty());
    }
    // The idle count once the warm session's threads have ended: the same for 200 ms (a fixed sleep could
    // read it while a slow teardown still ran, and the final check would then expect too many).
    int idle_threads = server.process().thread_count();
    for (auto deadline = std::chrono::steady_clock::now() + 5s, stable_since = std::chrono::steady_clock::now();
         std::chrono::steady_clock::now() < deadline && std::chrono::steady_clock::now() - stable_since < 200ms;) {
        std::this_thread::sleep_for(20ms);
        if (const int now = server.process().thread_count(); now != idle_threads) {
            idle_threads = now;
            stable_since = std::chrono::steady_clock::now();
        }
    }
    {
        LineChannel c = server.connect();
        c.send("go infinite");
        c.send("isready");
        REQUIRE(!c.read_until("readyok").empty());
        CHECK(server.process().thread_count() > idle_threads);
    }
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (server.process().thread_count() > idle_threads && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(10ms);
    }
    CHECK(server.process().thread_count() == idle_threads);
    LineChannel d = server.connect();
    d.send("isready");
    CHECK(d.read_line() == "readyok");
}

TEST_CASE("tcp a client that half-closes gets the answers to what it sent, then the close") {
    // printf 'position startpos\ngo depth 6\nisready' | nc -N: the end of its input used to end the
    // session at once, the search killed and no bestmove sent. Now, as on stdin, what was sent is answered
    // (the last line without its newline too), and a go infinite is stopped with its bestmove.
    ServerProcess server;
    LineChannel c = server.connect();
    REQUIRE(c.send("position startpos"));
    REQUIRE(c.send("go depth 6"));
    REQUIRE(c.send_raw("isready"));
    c.close_write();
    const auto lines = c.read_until("bestmove ", 20s);
    REQUIRE(!lines.empty());
    // isready is answered at once, before or after the bestmove depending on when the line is read.
    if (std::find(lines.begin(), lines.end(), "readyok") == lines.end()) CHECK(c.read_line(20s) == "readyok");
    CHECK(c.wait_closed(20s));

    LineChannel endless = server.connect();
    REQUIRE(endless.send("go infinite"));
    endless.close_write();
    CHECK(!endless.read_until("bestmove ", 20s).empty());
    CHECK(endless.wait_closed(20s));
}

TEST_CASE("tcp SIGTERM stops every search and sends the bestmoves then exits 0") {
    ServerProcess server;
    std::vector<LineChannel> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(server.connect());
        clients.back().send("go infinite");
        clients.back().send("isready");
        REQUIRE(!clients.back().read_until("readyok").empty());
    }
    server.process().signal(SIGTERM);
    for (auto& c : clients) {
        CHECK(!c.read_until("bestmove ", 5s).empty());
        CHECK(c.wait_closed());
    }
    CHECK(server.process().wait_exit() == 0);
}

TEST_CASE("tcp an NBoard session on the server") {
    ServerProcess server;
    LineChannel c = server.connect();
    c.send("nboard 2");
    c.send("set depth 2");
    CHECK(starts_with(*c.read_line(), "set myname "));
    c.send("ping 5");
    CHECK(c.read_until("pong 5").size() == 1);
    c.send("go");
    CHECK(!c.read_until("=== ").empty());
}

TEST_CASE("tcp an overlong line in an NBoard session gets an NBoard error line") {
    ServerProcess server({"--max-line", "512"});
    LineChannel c = server.connect();
    c.send("nboard 2");
    CHECK(starts_with(*c.read_line(), "set myname "));
    c.send("set game " + std::string(2000, 'x'));
    const auto l = c.read_line();
    REQUIRE(l);
    CHECK_MESSAGE(starts_with(*l, "status error: line longer than 512 bytes"), *l);  // not info string error
    CHECK(c.wait_closed());
}

TEST_CASE("tcp short load: 64 clients with short searches and random stops") {
    ServerProcess server({"--max-sessions", "64", "--hash", "1", "--max-memory", "452"});  // 68 + 64 x (2 + 4)
    constexpr int kClients = 64;
    std::vector<std::thread> threads;
    std::atomic<int> gos{0}, answered{0}, failures{0};
    const auto until = std::chrono::steady_clock::now() + 1500ms;
    for (int i = 0; i < kClients; ++i) {
        threads.emplace_back([&, i] {
            std::mt19937 rng(static_cast<unsigned>(i));
            LineChannel c = server.connect();
            while (std::chrono::steady_clock::now() < until) {
                const bool stop = rng() % 2;
                c.send(stop ? "go depth 60" : rng() % 2 ? "go nodes 2000" : "go movetime 5");
                ++gos;
                if (stop) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 5));
                    c.send("stop");
                }
                if (c.read_until("bestmove ", 20s).empty()) {
                    ++failures;
                    return;
                }
                ++answered;
            }
            c.send("quit");
        });
    }
    for (auto& t : threads) t.join();
    MESSAGE("load: " << answered.load() << " searches by " << kClients << " clients in ~1.5 s; server RSS "
                     << server.process().rss_kib() << " KiB");
    CHECK(failures == 0);
    CHECK(gos == answered);
    CHECK(server.process().rss_kib() < 512 * 1024);  // 64 sessions with 1 MiB tables: far below 512 MiB
    LineChannel d = server.connect();
    d.send("isready");
    CHECK(d.read_line() == "readyok");
}
