// Scheduling, workers, storage and reporting of a match (see match_runner.hpp).
#include "tools/match/match_runner.hpp"

#include <atomic>
#include <csignal>
#include <ctime>
#include <pthread.h>
#include <cstdio>
#include <deque>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include <spdlog/spdlog.h>

#include "tools/match/game.hpp"
#include "tools/match/progress.hpp"
#include "tools/match/result_store.hpp"
#include "tools/match/summary.hpp"

namespace reversi::match {

namespace {

GameOutcome outcome_for_first_engine(const GameResult& r) {
    GameOutcome o;
    o.index = r.index;
    o.points = r.points(0);
    if (r.fault == Fault::None) o.margin = r.margin(0);
    return o;
}

class Match {
public:
    explicit Match(const MatchConfig& config, ResultStore store)
        : config_(config), store_(std::move(store)), progress_(config.progress),
          started_(std::chrono::steady_clock::now()) {
        names_ = {config.engines[0].name, config.engines[1].name};
        timeouts_ = config.timeouts;
        timeouts_.abort = &abort_;
        std::set<int> done;
        for (const auto& r : store_.previous()) {
            if (r.index >= config.games) continue;  // a shorter rerun ignores games beyond its range
            done.insert(r.index);
            record(r);
        }
        for (int i = 0; i < config.games; ++i) {
            if (!done.count(i)) pending_.push_back(i);
        }
        if (!store_.previous().empty()) {
            spdlog::info("resuming: {} games already recorded, {} to play", done.size(), pending_.size());
        }
        update_sprt();
    }

    int run() {
        // SIGINT/SIGTERM: blocked in every thread and taken by a watcher, which stops the match: running
        // games end at once unrecorded, the summary of the recorded games is printed, exit code 130.
        sigset_t signals;
        sigemptyset(&signals);
        sigaddset(&signals, SIGINT);
        sigaddset(&signals, SIGTERM);
        sigset_t previous;
        pthread_sigmask(SIG_BLOCK, &signals, &previous);
        std::atomic<bool> finished{false};
        std::thread watcher([&] {
            const timespec slice{0, 100'000'000};
            while (!finished.load()) {
                const int sig = sigtimedwait(&signals, nullptr, &slice);
                if (sig == SIGINT || sig == SIGTERM) interrupt();
            }
        });
        const int workers = std::max(1, std::min<int>(config_.concurrency, static_cast<int>(pending_.size())));
        std::vector<std::thread> threads;
        if (!stop_scheduling_) {
            for (int w = 0; w < workers; ++w) threads.emplace_back([this] { worker(); });
        }
        for (auto& t : threads) t.join();
        finished = true;
        watcher.join();
        pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        progress_.finish();
        if (!fatal_.empty()) {
            std::fprintf(stderr, "reversi-match: %s\n", fatal_.c_str());
        }
        if (interrupted_) {
            std::fprintf(stderr, "reversi-match: interrupted with %zu games recorded; continue with --resume\n",
                         outcomes_.size());
        }
        const int code = report();
        return interrupted_ ? 130 : code;
    }

private:
    void record(const GameResult& r) {
        outcomes_.push_back(outcome_for_first_engine(r));
        if (r.fault != Fault::None) {
            ++forfeits_[std::string(fault_name(r.fault)) + " by " + names_[static_cast<std::size_t>(r.faulty_engine)]];
        }
    }

    void update_sprt() {
        if (!config_.sprt) return;
        sprt_state_ = sprt(*config_.sprt, compute_statistics(outcomes_));
        if (sprt_state_->decision != SprtDecision::Continue) stop_scheduling_ = true;
    }

    std::optional<int> next_game() {
        std::lock_guard lock(mutex_);
        if (stop_scheduling_ || pending_.empty()) return std::nullopt;
        const int i = pending_.front();
        pending_.pop_front();
        return i;
    }

    void worker() {
        std::array<std::unique_ptr<EnginePlayer>, 2> players = {make_player(config_.engines[0], timeouts_),
                                                                 make_player(config_.engines[1], timeouts_)};
        GameSettings settings{{config_.engines[0].tc, config_.engines[1].tc}, timeouts_};
        while (auto index = next_game()) {
            GameSpec spec;
            spec.index = *index;
            spec.opening_index = (*index / 2) % static_cast<int>(config_.openings.size());
            spec.opening = config_.openings[static_cast<std::size_t>(spec.opening_index)];
            spec.variant = config_.variant;
            spec.black = *index % 2 == 0 ? 0 : 1;
            auto result = play_game(spec, {players[0].get(), players[1].get()}, settings, abort_);
            if (!result) break;
            if (result->fault == Fault::StartFailed && !ever_started_[static_cast<std::size_t>(result->faulty_engine)]) {
                fail("cannot start engine " + names_[static_cast<std::size_t>(result->faulty_engine)] + ": " +
                     result->detail);
                break;
            }
            for (int e = 0; e < 2; ++e) {
                if (players[static_cast<std::size_t>(e)]->running()) ever_started_[static_cast<std::size_t>(e)] = true;
            }
            if (result->fault != Fault::None) {
                spdlog::warn("game {}: {} by {}: {}", result->index, fault_name(result->fault),
                             names_[static_cast<std::size_t>(result->faulty_engine)], result->detail);
            }
            std::lock_guard lock(mutex_);
            if (auto ok = store_.append(*result, names_); !ok) {
                fail_locked(ok.error().message);
                break;
            }
            record(*result);
            ++played_this_run_;
            update_sprt();
            progress_.update(static_cast<int>(outcomes_.size()), config_.games, played_this_run_,
                             compute_statistics(outcomes_));
        }
        players[0]->stop();
        players[1]->stop();
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

    int report() {
        SummaryInput in;
        in.names = names_;
        in.stats = compute_statistics(outcomes_);
        in.sprt_spec = config_.sprt;
        in.sprt_state = sprt_state_;
        in.forfeits = forfeits_;
        in.games_planned = config_.games;
        const bool sprt_done = sprt_state_ && sprt_state_->decision != SprtDecision::Continue;
        in.complete = fatal_.empty() && !interrupted_ && (static_cast<int>(outcomes_.size()) == config_.games || sprt_done);
        in.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        const std::string json = summary_json(in);
        std::ofstream(config_.out_prefix + ".json", std::ios::trunc) << json;
        std::fputs((config_.json_to_stdout ? json : summary_text(in)).c_str(), stdout);
        std::fflush(stdout);
        return fatal_.empty() ? 0 : 1;
    }

    const MatchConfig& config_;
    ResultStore store_;
    ProgressLine progress_;
    std::chrono::steady_clock::time_point started_;
    std::array<std::string, 2> names_;
    std::mutex mutex_;
    std::deque<int> pending_;
    std::vector<GameOutcome> outcomes_;
    std::map<std::string, int> forfeits_;
    std::optional<SprtState> sprt_state_;
    int played_this_run_ = 0;
    bool stop_scheduling_ = false;  // guarded by mutex_
    bool interrupted_ = false;      // guarded by mutex_ (read after the workers have ended)
    PlayerTimeouts timeouts_;
    std::atomic<bool> abort_{false};
    std::array<std::atomic<bool>, 2> ever_started_{};
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
