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
#include "tools/match/progress.hpp"
#include "tools/match/result_store.hpp"
#include "tools/match/summary.hpp"
#include "tools/match/tournament_summary.hpp"

namespace reversi::match {

namespace {

// `local`: the game's number inside its pairing (games 2k and 2k+1 form colour pair k).
GameOutcome outcome_for_first_engine(const GameResult& r, int local) {
    GameOutcome o;
    o.index = local;
    o.points = r.points(0);
    if (r.fault == Fault::None) o.margin = r.margin(0);
    return o;
}

class Match {
public:
    explicit Match(const MatchConfig& config, ResultStore store)
        : config_(config),
          store_(std::move(store)),
          progress_(config.progress),
          started_(std::chrono::steady_clock::now()) {
        for (const auto& e : config.engines) names_.push_back(e.name);
        pairings_ = tournament_pairings(static_cast<int>(names_.size()), config.tournament);
        outcomes_.resize(pairings_.size());
        forfeits_.resize(pairings_.size());
        timeouts_ = config.timeouts;
        timeouts_.abort = &abort_;
        const auto schedule = tournament_schedule(pairings(), config.games);
        total_games_ = static_cast<int>(schedule.size());
        std::set<int> done;
        for (const auto& r : store_.previous()) {
            // a shorter rerun ignores games beyond its range
            if (r.index < 0 || locate_game(r.index, pairings()).local >= config.games) continue;
            if (!done.insert(r.index).second) continue;
            record(r);
        }
        for (int g : schedule) {
            if (!done.count(g)) pending_.push_back(g);
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
            std::fprintf(stderr, "reversi-match: interrupted with %d games recorded; continue with --resume\n",
                         recorded_);
        }
        const int code = report();
        return interrupted_ ? 130 : code;
    }

private:
    [[nodiscard]] int pairings() const noexcept { return static_cast<int>(pairings_.size()); }

    // The pair's engine (0 or 1 in the game) as an engine number of the tournament.
    [[nodiscard]] int engine_of(const Pairing& p, int in_game) const noexcept {
        return in_game == 0 ? p.first : p.second;
    }

    [[nodiscard]] std::array<std::string, 2> pair_names(const Pairing& p) const {
        return {names_[static_cast<std::size_t>(p.first)], names_[static_cast<std::size_t>(p.second)]};
    }

    void record(const GameResult& r) {
        const GameSlot slot = locate_game(r.index, pairings());
        const auto k = static_cast<std::size_t>(slot.pairing);
        outcomes_[k].push_back(outcome_for_first_engine(r, slot.local));
        ++recorded_;
        if (r.fault != Fault::None) {
            ++forfeits_[k][std::string(fault_name(r.fault)) + " by " +
                           pair_names(pairings_[k])[static_cast<std::size_t>(r.faulty_engine)]];
        }
    }

    void update_sprt() {
        if (!config_.sprt) return;
        sprt_state_ = sprt(*config_.sprt, compute_statistics(outcomes_[0]));
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
        // One player per engine, started by play_game when first needed.
        std::vector<std::unique_ptr<EnginePlayer>> players;
        for (const auto& e : config_.engines) players.push_back(make_player(e, timeouts_));
        while (auto index = next_game()) {
            const GameSlot slot = locate_game(*index, pairings());
            const Pairing& pairing = pairings_[static_cast<std::size_t>(slot.pairing)];
            const auto a = static_cast<std::size_t>(pairing.first), b = static_cast<std::size_t>(pairing.second);
            GameSettings settings{{config_.engines[a].tc, config_.engines[b].tc}, timeouts_};
            GameSpec spec;
            spec.index = *index;
            spec.opening_index = (slot.local / 2) % static_cast<int>(config_.openings.size());
            spec.opening = config_.openings[static_cast<std::size_t>(spec.opening_index)];
            spec.variant = config_.variant;
            spec.black = slot.local % 2 == 0 ? 0 : 1;
            auto result = play_game(spec, {players[a].get(), players[b].get()}, settings, abort_);
            if (!result) break;
            const int faulty = result->faulty_engine >= 0 ? engine_of(pairing, result->faulty_engine) : -1;
            if (result->fault == Fault::StartFailed && !ever_started_[static_cast<std::size_t>(faulty)]) {
                fail("cannot start engine " + names_[static_cast<std::size_t>(faulty)] + ": " + result->detail);
                break;
            }
            for (const auto e : {a, b}) {
                if (players[e]->running()) ever_started_[e] = true;
            }
            if (result->fault != Fault::None) {
                spdlog::warn("game {}: {} by {}: {}", result->index, fault_name(result->fault),
                             names_[static_cast<std::size_t>(faulty)], result->detail);
            }
            std::lock_guard lock(mutex_);
            if (auto ok = store_.append(*result, pair_names(pairing)); !ok) {
                fail_locked(ok.error().message);
                break;
            }
            record(*result);
            ++played_this_run_;
            update_sprt();
            progress_.update(recorded_, total_games_, played_this_run_,
                             compute_statistics(outcomes_[static_cast<std::size_t>(slot.pairing)]));
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

    int report() {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
        std::vector<SummaryInput> pairs;
        for (std::size_t k = 0; k < pairings_.size(); ++k) {
            SummaryInput in;
            in.names = pair_names(pairings_[k]);
            in.stats = compute_statistics(outcomes_[k]);
            in.sprt_spec = config_.sprt;
            in.sprt_state = sprt_state_;
            in.forfeits = forfeits_[k];
            in.games_planned = config_.games;
            const bool sprt_done = sprt_state_ && sprt_state_->decision != SprtDecision::Continue;
            in.complete = fatal_.empty() && !interrupted_ &&
                          (static_cast<int>(outcomes_[k].size()) == config_.games || sprt_done);
            in.seconds = seconds;
            pairs.push_back(std::move(in));
        }
        std::string json, text;
        if (pairs.size() == 1 && names_.size() == 2) {  // a plain match: the two-engine summary
            json = summary_json(pairs[0]);
            text = summary_text(pairs[0]);
        } else {
            TournamentSummary t;
            t.kind = config_.tournament;
            t.names = names_;
            t.pairs = std::move(pairs);
            t.games_planned = total_games_;
            t.complete = fatal_.empty() && !interrupted_ && recorded_ == total_games_;
            t.seconds = seconds;
            json = tournament_json(t);
            text = tournament_text(t);
        }
        std::ofstream(config_.out_prefix + ".json", std::ios::trunc) << json;
        std::fputs((config_.json_to_stdout ? json : text).c_str(), stdout);
        std::fflush(stdout);
        return fatal_.empty() ? 0 : 1;
    }

    const MatchConfig& config_;
    ResultStore store_;
    ProgressLine progress_;
    std::chrono::steady_clock::time_point started_;
    std::vector<std::string> names_;
    std::vector<Pairing> pairings_;
    int total_games_ = 0;  // over all pairings
    int recorded_ = 0;     // games recorded (resumed and played), guarded by mutex_
    std::mutex mutex_;
    std::deque<int> pending_;
    std::vector<std::vector<GameOutcome>> outcomes_;    // per pairing, from its first engine's side
    std::vector<std::map<std::string, int>> forfeits_;  // per pairing
    std::optional<SprtState> sprt_state_;
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
