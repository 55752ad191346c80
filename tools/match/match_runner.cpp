// Scheduling, workers, storage and reporting of a match (see match_runner.hpp).
#include "tools/match/match_runner.hpp"

#include <pthread.h>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <deque>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include <spdlog/spdlog.h>

#include "tools/match/game.hpp"
#include "tools/match/match_tally.hpp"
#include "tools/match/progress.hpp"
#include "tools/match/result_store.hpp"
#include "tools/match/signal_watcher.hpp"

namespace reversi::match {

namespace {

class Match {
public:
    explicit Match(const MatchConfig& config, ResultStore store)
        : config_(config),
          store_(std::move(store)),
          tally_(config),
          progress_(config.progress),
          started_(std::chrono::steady_clock::now()) {
        timeouts_ = config.timeouts;
        timeouts_.abort = &abort_;
        for (const auto& r : store_.previous()) {
            if (tally_.in_match(r.index) && !tally_.recorded(r.index)) tally_.record(r);
        }
        for (int g : tally_.schedule()) {
            if (!tally_.recorded(g)) pending_.push_back(g);
        }
        if (!store_.previous().empty()) {
            spdlog::info("resuming: {} games already recorded, {} to play", tally_.recorded_count(), pending_.size());
        }
        stop_scheduling_ = tally_.decided();
    }

    int run() {
        // SIGINT/SIGTERM: blocked in every thread and taken by a watcher, which stops the match: running
        // games end at once unrecorded, the summary of the recorded games is printed, exit code 130.
        SignalWatcher watcher([this] { interrupt(); });
        const int workers = std::max(1, std::min<int>(config_.concurrency, static_cast<int>(pending_.size())));
        std::vector<std::thread> threads;
        if (!stop_scheduling_) {
            for (int w = 0; w < workers; ++w) threads.emplace_back([this] { worker(); });
        }
        for (auto& t : threads) t.join();
        watcher.stop();
        progress_.finish();
        if (!fatal_.empty()) {
            std::fprintf(stderr, "reversi-match: %s\n", fatal_.c_str());
        }
        if (interrupted_) {
            std::fprintf(stderr, "reversi-match: interrupted with %d games recorded; continue with --resume\n",
                         tally_.recorded_count());
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        tally_.report(fatal_.empty() && !interrupted_, seconds);
        const int code = fatal_.empty() ? 0 : 1;
        return interrupted_ ? 130 : code;
    }

private:
    std::optional<int> next_game() {
        std::lock_guard lock(mutex_);
        if (stop_scheduling_ || pending_.empty()) return std::nullopt;
        const int i = pending_.front();
        pending_.pop_front();
        return i;
    }

    void worker() {
        // One player per engine, started by play_game when first needed.
        std::vector<std::unique_ptr<EnginePlayer>> players;
        for (const auto& e : config_.engines) players.push_back(make_player(e, timeouts_));
        while (auto index = next_game()) {
            const auto [a, b] = tally_.game_engines(*index);
            GameSettings settings{{config_.engines[a].tc, config_.engines[b].tc}, timeouts_};
            auto result = play_game(tally_.game_spec(*index), {players[a].get(), players[b].get()}, settings, abort_);
            if (!result) break;
            const int faulty = result->faulty_engine < 0 ? -1 : static_cast<int>(result->faulty_engine == 0 ? a : b);
            if (result->fault == Fault::StartFailed && !ever_started_[static_cast<std::size_t>(faulty)]) {
                fail("cannot start engine " + tally_.names()[static_cast<std::size_t>(faulty)] + ": " + result->detail);
                break;
            }
            for (const auto e : {a, b}) {
                if (players[e]->running()) ever_started_[e] = true;
            }
            if (result->fault != Fault::None) {
                spdlog::warn("game {}: {} by {}: {}", result->index, fault_name(result->fault),
                             tally_.names()[static_cast<std::size_t>(faulty)], result->detail);
            }
            std::lock_guard lock(mutex_);
            const int pairing = locate_game(*index, tally_.pairings()).pairing;
            if (auto ok = store_.append(*result, tally_.pair_names(tally_.pairing(pairing))); !ok) {
                fail_locked(ok.error().message);
                break;
            }
            tally_.record(*result);
            ++played_this_run_;
            if (tally_.decided()) stop_scheduling_ = true;
            progress_.update(tally_.recorded_count(), tally_.total_games(), played_this_run_,
                             tally_.statistics(pairing));
        }
        for (auto& p : players) p->stop();
    }

    void interrupt() {
        std::lock_guard lock(mutex_);
        interrupted_ = true;
        stop_scheduling_ = true;
        abort_ = true;
    }

    void fail(const std::string& message) {
        std::lock_guard lock(mutex_);
        fail_locked(message);
    }
    void fail_locked(const std::string& message) {
        if (fatal_.empty()) fatal_ = message;
        stop_scheduling_ = true;
        abort_ = true;
    }

    const MatchConfig& config_;
    ResultStore store_;
    MatchTally tally_;  // guarded by mutex_
    ProgressLine progress_;
    std::chrono::steady_clock::time_point started_;
    std::mutex mutex_;
    std::deque<int> pending_;
    int played_this_run_ = 0;
    bool stop_scheduling_ = false;  // guarded by mutex_
    bool interrupted_ = false;      // guarded by mutex_ (read after the workers have ended)
    PlayerTimeouts timeouts_;
    std::atomic<bool> abort_{false};
    std::deque<std::atomic<bool>> ever_started_ = std::deque<std::atomic<bool>>(config_.engines.size());
    std::string fatal_;
};

}  // namespace

int run_match(const MatchConfig& config) {
    auto store = ResultStore::open(config.out_prefix, config.fingerprint, config.resume, config.overwrite);
    if (!store) {
        std::fprintf(stderr, "reversi-match: %s\n", store.error().message.c_str());
        return 1;
    }
    Match match(config, std::move(*store));
    return match.run();
}

}  // namespace reversi::match
