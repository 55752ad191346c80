#include "engine/core/worker_pool.hpp"

#include <algorithm>
#include <system_error>

namespace reversi {

WorkerPool::WorkerPool(int workers) { resize(workers); }

WorkerPool::~WorkerPool() { resize(0); }

int WorkerPool::resize(int workers) {
    workers = std::max(workers, 0);
    std::lock_guard guard(resize_mutex_);
    const int current = static_cast<int>(threads_.size());
    if (workers == current) return current;
    {
        std::lock_guard lock(mutex_);
        active_ = workers;
    }
    if (workers < current) {
        work_.notify_all();
        for (int i = workers; i < current; ++i) threads_[static_cast<std::size_t>(i)].join();
        threads_.resize(static_cast<std::size_t>(workers));
        return workers;
    }
    for (int i = current; i < workers; ++i) {
        try {
            threads_.emplace_back([this, i] { worker_loop(i); });
        } catch (const std::system_error&) {  // no more threads: keep the ones there are
            std::lock_guard lock(mutex_);
            active_ = i;
            break;
        }
        created_.fetch_add(1, std::memory_order_relaxed);
    }
    return static_cast<int>(threads_.size());
}

int WorkerPool::size() const noexcept {
    std::lock_guard lock(mutex_);
    return active_;
}

std::uint64_t WorkerPool::threads_created() const noexcept { return created_.load(std::memory_order_relaxed); }

void WorkerPool::worker_loop(int index) {
    std::unique_lock lock(mutex_);
    for (;;) {
        work_.wait(lock, [&] { return index >= active_ || !queue_.empty(); });
        if (index >= active_) {
            if (!queue_.empty()) work_.notify_one();  // a wake-up meant for a worker that stays
            return;
        }
        Task task = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        task.run();
        task.run = nullptr;  // the task's captures go before its group may be gone
        lock.lock();
        finish(*task.group);
    }
}

void WorkerPool::submit(TaskGroup& group, std::function<void()> task) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(Task{std::move(task), &group});
        ++group.pending_;
    }
    work_.notify_one();
}

void WorkerPool::wait(TaskGroup& group) {
    std::unique_lock lock(mutex_);
    while (group.pending_ > 0) {
        const auto it = std::find_if(queue_.begin(), queue_.end(), [&](const Task& t) { return t.group == &group; });
        if (it == queue_.end()) {  // all started: wait for the workers running them
            done_.wait(lock);
            continue;
        }
        std::function<void()> run = std::move(it->run);  // nobody took it: run it here
        queue_.erase(it);
        lock.unlock();
        run();
        run = nullptr;
        lock.lock();
        finish(group);
    }
}

void WorkerPool::finish(TaskGroup& group) {
    --group.pending_;
    done_.notify_all();
}

}  // namespace reversi
