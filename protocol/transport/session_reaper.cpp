#include "protocol/transport/session_reaper.hpp"

#include <malloc.h>

#include <spdlog/spdlog.h>

namespace reversi::transport {

SessionReaper::SessionReaper() : thread_([this] { run(); }) {}

SessionReaper::~SessionReaper() { close(); }

void SessionReaper::dispose(std::unique_ptr<dispatch::Session> session) noexcept {
    if (!session) return;
    session->stop_job();
    try {
        std::unique_lock lock(mutex_);
        if (!closed_) {
            queue_.push_back(std::move(session));
            lock.unlock();
            wake_.notify_one();
            return;
        }
    } catch (...) {  // std::bad_alloc, std::system_error: ended here instead
    }
    session.reset();
}

void SessionReaper::close() noexcept {
    {
        std::lock_guard lock(mutex_);
        if (closed_) return;
        closed_ = true;
    }
    wake_.notify_one();
    try {
        if (thread_.joinable()) thread_.join();
    } catch (const std::exception& e) {  // std::thread::join: not expected for a joinable thread
        spdlog::error("session reaper: its thread could not be joined: {}", e.what());
    }
}

void SessionReaper::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return closed_ || !queue_.empty(); });
        if (queue_.empty()) return;  // closed, and nothing left to end
        std::unique_ptr<dispatch::Session> session = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        session.reset();  // joins the job, frees the tables, gives the memory back to the budget
        malloc_trim(0);   // and the freed heap to the system
        lock.lock();
    }
}

}  // namespace reversi::transport
