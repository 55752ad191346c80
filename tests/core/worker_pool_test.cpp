// WorkerPool and TaskGroup: tasks run and are waited for, resizing, shutdown, nested groups.
#include <doctest/doctest.h>

#include <atomic>
#include <latch>
#include <set>
#include <thread>

#include "engine/core/worker_pool.hpp"

using namespace reversi;

TEST_CASE("worker pool: runs N tasks of a group and waits for all of them") {
    WorkerPool pool(2);
    CHECK(pool.size() == 2);
    CHECK(pool.threads_created() == 2);
    for (int round = 0; round < 20; ++round) {
        std::atomic<int> done{0};
        TaskGroup group(pool);
        for (int i = 0; i < 100; ++i) group.run([&] { done.fetch_add(1, std::memory_order_relaxed); });
        group.wait();
        CHECK(done.load() == 100);
    }
    CHECK(pool.threads_created() == 2);
}

TEST_CASE("worker pool: two parked workers take two tasks at once") {
    WorkerPool pool(2);
    std::latch all_there(3);  // both tasks and the caller: only reached when two workers run the tasks
    std::set<std::thread::id> ids;
    std::mutex ids_mutex;
    TaskGroup group(pool);
    for (int i = 0; i < 2; ++i) {
        group.run([&] {
            {
                std::lock_guard lock(ids_mutex);
                ids.insert(std::this_thread::get_id());
            }
            all_there.arrive_and_wait();
        });
    }
    all_there.arrive_and_wait();
    group.wait();
    CHECK(ids.size() == 2);
    CHECK(ids.count(std::this_thread::get_id()) == 0);
}

TEST_CASE("worker pool: resize up and down, and with no worker the waiting thread runs the tasks") {
    WorkerPool pool;
    CHECK(pool.size() == 0);
    CHECK(pool.threads_created() == 0);
    CHECK(pool.resize(3) == 3);
    CHECK(pool.size() == 3);
    CHECK(pool.threads_created() == 3);
    CHECK(pool.resize(3) == 3);  // same size: nothing created
    CHECK(pool.threads_created() == 3);
    CHECK(pool.resize(1) == 1);
    CHECK(pool.size() == 1);
    CHECK(pool.threads_created() == 3);
    {
        std::atomic<int> done{0};
        TaskGroup group(pool);
        for (int i = 0; i < 10; ++i) group.run([&] { done.fetch_add(1); });
        group.wait();
        CHECK(done.load() == 10);
    }
    CHECK(pool.resize(4) == 4);
    CHECK(pool.threads_created() == 6);
    CHECK(pool.resize(-2) == 0);
    CHECK(pool.size() == 0);
    std::atomic<int> inline_runs{0};
    const auto caller = std::this_thread::get_id();
    {
        TaskGroup group(pool);
        for (int i = 0; i < 5; ++i) {
            group.run([&] {
                if (std::this_thread::get_id() == caller) inline_runs.fetch_add(1);
            });
        }
    }  // the destructor waits, running the five tasks here
    CHECK(inline_runs.load() == 5);
    CHECK(pool.threads_created() == 6);
}

TEST_CASE("worker pool: destruction with idle workers, and of a pool that never ran a task") {
    for (int i = 0; i < 20; ++i) {
        WorkerPool idle(3);
        CHECK(idle.size() == 3);
    }
    std::atomic<int> done{0};
    {
        WorkerPool pool(2);
        {
            TaskGroup group(pool);
            for (int i = 0; i < 4; ++i) group.run([&] { done.fetch_add(1); });
        }
        // the workers are parked again here; the destructor wakes and joins them
    }
    CHECK(done.load() == 4);
}

TEST_CASE("worker pool: a task that waits for a group of its own does not deadlock, even with every worker busy") {
    for (int workers : {0, 1, 2}) {
        CAPTURE(workers);
        WorkerPool pool(workers);
        std::atomic<int> leaves{0};
        TaskGroup outer(pool);
        for (int i = 0; i < 3; ++i) {
            outer.run([&] {
                TaskGroup inner(pool);
                for (int j = 0; j < 4; ++j) inner.run([&] { leaves.fetch_add(1); });
                inner.wait();
            });
        }
        outer.wait();
        CHECK(leaves.load() == 12);
        CHECK(pool.threads_created() == static_cast<std::uint64_t>(workers));
    }
}
