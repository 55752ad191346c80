#pragma once
// Ends the sessions of closed connections off the server's network thread. Ending a session joins its
// job: a search stops within milliseconds, but a job that cannot be stopped (a Hash resize, a table
// clear, a weights file read: a second or more at a large Hash) would freeze every client of the one
// network thread for that long, again and again for a client that connects and hangs up in a loop.
// A closing connection hands its session here; the reaper's thread stops, joins and frees it. Its memory
// stays in the server's budget until then (the session gives it back when destroyed), so a flood of
// such sessions is bounded by --max-memory like open ones.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "protocol/dispatch/session.hpp"

namespace reversi::transport {

class SessionReaper {
public:
    SessionReaper();
    ~SessionReaper();  // close()
    SessionReaper(const SessionReaper&) = delete;
    SessionReaper& operator=(const SessionReaper&) = delete;

    // Stops the session's job now and ends the session on the reaper's thread; after close() (or when the
    // queue cannot grow), on the caller's thread.
    void dispose(std::unique_ptr<dispatch::Session> session) noexcept;
    // Ends the sessions handed over so far and joins the thread. The server calls it after its io_context
    // has stopped and before it is destroyed: a session's job posts its last lines to that io_context.
    void close() noexcept;

private:
    void run();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::unique_ptr<dispatch::Session>> queue_;
    bool closed_ = false;
    std::thread thread_;  // last: started once the members above exist
};

}  // namespace reversi::transport
