#pragma once
// A persistent pool of worker threads for the search's helpers (lazy SMP) and the endgame solver's split
// points: the threads are created when the pool grows and parked on a condition variable between tasks,
// so that a search or a split starts no thread of its own.
//
//   WorkerPool pool(1);             // one worker (the caller is the other thread of a two-thread search)
//   {
//       TaskGroup group(pool);
//       group.run([&] { help(); });  // queued; a parked worker takes it
//       work();                      // the caller works meanwhile
//       group.wait();                // then waits for the group's tasks (the destructor does too)
//   }
//
// Progress never depends on a free worker: TaskGroup::wait() runs on the calling thread every task of its
// group that no worker has started yet. A task may therefore open a group of its own and wait for it
// (a split inside a split, a split while every worker is busy, a pool of zero workers): the nested tasks
// run inline when nobody else takes them. Tasks must not throw (an exception in a worker ends the
// process, as it would in a std::thread) and must not wait for a task that has not started.
//
// Ownership: one pool per session, owned by its Searcher, which sizes it to Threads - 1 and lends it to
// its endgame solver; standalone solvers (tools, tests) own theirs. There is no global pool.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace reversi {

class TaskGroup;

class WorkerPool {
public:
    explicit WorkerPool(int workers = 0);
    // Stops and joins the workers (idle or finishing their task); no TaskGroup may outlive the pool.
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Grows (new threads) or shrinks (the surplus workers finish their current task, exit and are joined)
    // to `workers` threads (negative counts as 0) and returns the size reached: fewer when the system
    // refuses a thread (the pool stays usable; the groups' tasks then run on fewer threads). Called by the
    // owner between searches; tasks still queued stay queued. Not to be called from a task.
    int resize(int workers);
    [[nodiscard]] int size() const noexcept;
    // Threads created since construction (the tests check that searches create none).
    [[nodiscard]] std::uint64_t threads_created() const noexcept;

private:
    friend class TaskGroup;
    struct Task {
        std::function<void()> run;
        TaskGroup* group = nullptr;
    };

    void worker_loop(int index);
    void submit(TaskGroup& group, std::function<void()> task);
    void wait(TaskGroup& group);
    void finish(TaskGroup& group);  // with mutex_ held: one of the group's tasks is done

    std::mutex resize_mutex_;  // resize() against itself
    mutable std::mutex mutex_;
    std::condition_variable work_;  // a task was queued, or workers must exit
    std::condition_variable done_;  // a task finished
    std::deque<Task> queue_;
    int active_ = 0;  // workers with an index below this keep running (guarded by mutex_)
    std::atomic<std::uint64_t> created_{0};
    std::vector<std::thread> threads_;  // resize() only
};

// A batch of tasks on a pool, waited for together. Owned by the thread that submits to it (run() and
// wait() are not for other threads); the destructor waits.
class TaskGroup {
public:
    explicit TaskGroup(WorkerPool& pool) noexcept : pool_(pool) {}
    ~TaskGroup() { wait(); }
    TaskGroup(const TaskGroup&) = delete;
    TaskGroup& operator=(const TaskGroup&) = delete;

    void run(std::function<void()> task) { pool_.submit(*this, std::move(task)); }
    // Runs the group's unstarted tasks here, then waits until the started ones are done.
    void wait() { pool_.wait(*this); }

private:
    friend class WorkerPool;
    WorkerPool& pool_;
    int pending_ = 0;  // submitted and not finished (guarded by the pool's mutex)
};

}  // namespace reversi
