// Unit tests of the pondering pieces: the time left at ponderhit, the deadline timer and the control that
// a go ponder search shares with the front end (without a search: its stop is a counter here).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "protocol/time/deadline_timer.hpp"
#include "protocol/time/time_manager.hpp"
#include "protocol/uci/ponder_control.hpp"

using namespace reversi;
using namespace std::chrono_literals;
using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

namespace {

// Counts the stops a control asks for and lets a test wait for the first.
struct StopCounter {
    std::mutex mutex;
    std::condition_variable cv;
    int stops = 0;
    void stop() {
        {
            std::lock_guard lock(mutex);
            ++stops;
        }
        cv.notify_all();
    }
    bool wait_first(milliseconds timeout) {
        std::unique_lock lock(mutex);
        return cv.wait_for(lock, timeout, [this] { return stops > 0; });
    }
    int count() {
        std::lock_guard lock(mutex);
        return stops;
    }
};

uci::PonderPlan plan_of(milliseconds soft, milliseconds hard, Clock::time_point received) {
    uci::PonderPlan plan;
    plan.limits = timing::TimeLimits{soft, hard};
    plan.received = received;
    plan.bounded = true;
    return plan;
}

}  // namespace

TEST_CASE("ponderhit time: the time pondered counts as used and the hard limit is never more than planned") {
    const timing::TimeLimits planned{milliseconds(300), milliseconds(1200)};
    auto left = timing::limits_at_ponderhit(planned, milliseconds(100));
    CHECK(*left.soft == milliseconds(200));
    CHECK(*left.hard == milliseconds(1100));
    left = timing::limits_at_ponderhit(planned, milliseconds(500));  // pondered past the soft limit: answer now
    CHECK(*left.soft == milliseconds(0));
    CHECK(*left.hard == milliseconds(700));
    left = timing::limits_at_ponderhit(planned, milliseconds(5000));
    CHECK(*left.hard == milliseconds(1));
    left = timing::limits_at_ponderhit(planned, milliseconds(-20));  // a clock step backwards: nothing gained
    CHECK(*left.hard == milliseconds(1200));
    CHECK(!timing::limits_at_ponderhit(timing::TimeLimits{}, milliseconds(10)).hard);
}

TEST_CASE("deadline timer: fires once at its deadline, never after cancel") {
    StopCounter fired;
    {
        timing::DeadlineTimer timer([&] { fired.stop(); });
        const auto start = Clock::now();
        timer.arm(start + 30ms);
        timer.arm(start);  // only the first arm counts
        REQUIRE(fired.wait_first(5s));
        CHECK(Clock::now() - start >= 30ms);
    }
    CHECK(fired.count() == 1);
    StopCounter cancelled;
    timing::DeadlineTimer timer([&] { cancelled.stop(); });
    timer.arm(Clock::now() + 300ms);  // far enough that a descheduled test thread still cancels it first
    timer.cancel();
    std::this_thread::sleep_for(400ms);
    CHECK(cancelled.count() == 0);
    timer.arm(Clock::now());  // after cancel: nothing
    std::this_thread::sleep_for(20ms);
    CHECK(cancelled.count() == 0);
}

TEST_CASE("ponder control: a search that ends before ponderhit waits and ponderhit releases it") {
    StopCounter stops;
    uci::PonderControl control(plan_of(1000ms, 2000ms, Clock::now()), [&] { stops.stop(); });
    auto answer = std::async(std::launch::async, [&] { return control.wait_for_answer(); });
    CHECK(answer.wait_for(100ms) == std::future_status::timeout);  // no answer while pondering
    const auto hit_at = Clock::now();
    REQUIRE(control.hit(hit_at));
    REQUIRE(answer.wait_for(5s) == std::future_status::ready);
    const auto hit = answer.get();
    REQUIRE(hit);
    CHECK(*hit == hit_at);
    CHECK(!control.hit(Clock::now()));  // a second ponderhit: nothing ponders any more
    CHECK(stops.count() == 0);
}

TEST_CASE("ponder control: stop releases a waiting search without a ponderhit") {
    StopCounter stops;
    uci::PonderControl control(plan_of(1000ms, 2000ms, Clock::now()), [&] { stops.stop(); });
    auto answer = std::async(std::launch::async, [&] { return control.wait_for_answer(); });
    CHECK(answer.wait_for(50ms) == std::future_status::timeout);
    control.release();
    REQUIRE(answer.wait_for(5s) == std::future_status::ready);
    CHECK(!answer.get());
    CHECK(!control.hit(Clock::now()));
}

TEST_CASE("ponder control: after ponderhit the hard limit stops the search and the soft limit is reported") {
    StopCounter stops;
    const auto received = Clock::now();
    uci::PonderControl control(plan_of(60ms, 150ms, received), [&] { stops.stop(); });
    CHECK(!control.past_soft_limit(Clock::now() + 10s));  // no time limit while pondering
    const auto hit_at = received + 20ms;
    REQUIRE(control.hit(hit_at));
    CHECK(!control.past_soft_limit(hit_at + 30ms));  // 40 ms of the soft limit were left at ponderhit
    CHECK(control.past_soft_limit(hit_at + 40ms));
    REQUIRE(stops.wait_first(5s));  // the hard limit, 130 ms after ponderhit
    CHECK(Clock::now() >= hit_at + 130ms);
    const auto hit = control.wait_for_answer();
    REQUIRE(hit);
    CHECK(stops.count() == 1);
}

TEST_CASE("ponder control: after ponderhit the soft limit is scaled as the search's own would be") {
    StopCounter stops;
    // Times an hour ahead: the hard-limit timer armed at the ponderhit never fires during the test.
    const auto received = Clock::now() + 1h;
    uci::PonderControl control(plan_of(60ms, 150ms, received), [&] { stops.stop(); });
    // While pondering: no limit, whatever the scale; the scale is kept for the ponderhit.
    CHECK(!control.past_soft_limit(received + 10s, 1.5));
    REQUIRE(control.hit(received + 20ms));
    CHECK(stops.count() == 0);
    // 60 ms x 1.5 = 90 ms from the go ponder.
    CHECK(!control.past_soft_limit(received + 80ms));  // a report without a scale keeps the last one
    CHECK(control.past_soft_limit(received + 90ms));
    // A settled move: the share itself.
    CHECK(control.past_soft_limit(received + 60ms, 1.0));
    CHECK(!control.past_soft_limit(received + 59ms, 1.0));
    // Never past the hard limit: 60 ms x 3 = 180 ms, capped at 150 ms.
    CHECK(!control.past_soft_limit(received + 149ms, 3.0));
    CHECK(control.past_soft_limit(received + 150ms, 3.0));
    REQUIRE(control.wait_for_answer());
}

TEST_CASE("ponder control: a ponderhit inside the scaled soft limit does not stop the search at once") {
    StopCounter stops;
    const auto received = Clock::now();
    uci::PonderControl control(plan_of(50ms, 10000ms, received), [&] { stops.stop(); });
    CHECK(!control.past_soft_limit(received + 1ms, 1.8));  // the best move changed while pondering
    REQUIRE(control.hit(received + 80ms));                 // past 50 ms, inside 90 ms
    CHECK(stops.count() == 0);
    CHECK(!control.past_soft_limit(received + 85ms));
    CHECK(control.past_soft_limit(received + 90ms));
    REQUIRE(control.wait_for_answer());
    CHECK(stops.count() == 0);
}

TEST_CASE("ponder control: ponderhit after pondering longer than the soft limit stops the search at once") {
    StopCounter stops;
    const auto received = Clock::now();
    uci::PonderControl control(plan_of(50ms, 10000ms, received), [&] { stops.stop(); });
    REQUIRE(control.hit(received + 80ms));
    CHECK(stops.count() == 1);  // at once, not 10 s later
    CHECK(control.wait_for_answer());
}

TEST_CASE("ponder control: a finished job cancels the timer, so it never stops the next search") {
    StopCounter stops;
    {
        uci::PonderControl control(plan_of(1000ms, 100ms, Clock::now()), [&] { stops.stop(); });
        REQUIRE(control.hit(Clock::now()));
        control.end();
    }
    std::this_thread::sleep_for(200ms);
    CHECK(stops.count() == 0);
}
