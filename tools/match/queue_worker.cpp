// `reversi-match worker`: plays the colour pairs of a distributed match (distributed.hpp).

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>

#include "protocol/cli/command_line.hpp"
#include "protocol/cli/logging.hpp"
#include "tools/match/distributed.hpp"
#include "tools/match/match_args.hpp"
#include "tools/match/match_tally.hpp"
#include "tools/match/result_store.hpp"
#include "tools/match/signal_watcher.hpp"
#include "tools/queue/work_queue.hpp"

namespace reversi::match {

namespace {

using namespace std::chrono_literals;
using namespace queue;

const cli::ProgramSpec kWorkerSpec{
    "reversi-match worker",
    "reversi-match worker --queue redis://HOST:PORT/NAME [options]",
    "Plays the colour pairs of the distributed match NAME (started by reversi-match ... --queue\n"
    "redis://HOST:PORT/NAME): waits for the match, builds it from the coordinator's command line (its engine\n"
    "commands and opening files must exist here too), takes pairs through the Redis consumer group, and\n"
    "puts every game's result on the results stream. Exits when the match is over. docs/scale.md",
    {{"queue", true, "redis://HOST:PORT/NAME (a Redis password from REVERSI_REDIS_PASSWORD)"},
     {"concurrency", true, "pairs at once (default: cores / engine threads)"},
     {"reclaim-after", true,
      "seconds: a pair pending this long without its worker's heartbeat is played again "
      "(default 120)"},
     {"consumer", true, "this worker's name in the consumer group (default HOST-PID)"},
     {"log-level", true, "trace, debug, info, warn, error or off (default info)"}},
    ""};

struct WorkerOptions {
    QueueAddress address;
    int concurrency = 1;
    std::chrono::milliseconds reclaim_after{120'000};
    std::string consumer;
};

// "G1,G2": the games of a pair; empty when any of them is not a whole number.
std::vector<int> parse_games(const std::string& text) {
    std::vector<int> games;
    std::istringstream in(text);
    std::string g;
    while (std::getline(in, g, ',')) {
        int v = 0;
        const auto [end, ec] = std::from_chars(g.data(), g.data() + g.size(), v);
        if (ec != std::errc() || end != g.data() + g.size()) return {};
        games.push_back(v);
    }
    return games;
}

// What the queue's match says of a game that this worker's match lacks.
enum class QueuedGame {
    Grown,       // the queue's match (this match, resumed with more games) has it: restart to play it
    NotInMatch,  // neither has it: a pair written by hand, skipped
    OtherMatch,  // the queue now holds another match (or its command line does not parse here): stop
};

// The queue's command line may have changed since this worker loaded it (a coordinator resumed the match
// with more games); a Redis error is an error value.
Expected<QueuedGame> queued_game(RedisClient& redis, const QueueKeys& keys, const std::string& fingerprint, int g) {
    auto args = redis.command({"GET", keys.args});
    if (!args) return args.error();
    auto command = parse_match_command(split_args(string_value(*args).value_or("")));
    if (command.exit_code || command.config.fingerprint != fingerprint) return QueuedGame::OtherMatch;
    return MatchTally(command.config).in_match(g) ? QueuedGame::Grown : QueuedGame::NotInMatch;
}

// A stop flag found at the start may be a finished match's that a coordinator is resuming (it rewrites the
// command line, adds pairs, then clears the flag): waits up to kStaleStopGrace for that before the match is
// loaded. A work-queue Job's worker that exited at once would end the Job, and the resumed match would
// wait for ever. Returns once the flag is gone or the time is up (the play loop then ends at the flag).
constexpr auto kStaleStopGrace = 60s;
Expected<bool> wait_out_stop(RedisClient& redis, const QueueKeys& keys, const std::string& name) {
    const auto deadline = std::chrono::steady_clock::now() + kStaleStopGrace;
    for (bool told = false;; told = true) {
        auto stop = redis.command({"EXISTS", keys.stop});
        if (!stop) return stop.error();
        if (stop->integer == 0 || std::chrono::steady_clock::now() >= deadline) return true;
        if (!told) {
            spdlog::info("the match on queue {} is over; waiting up to {} s for a coordinator that resumes it", name,
                         kStaleStopGrace.count());
        }
        std::this_thread::sleep_for(500ms);
    }
}

class Worker {
public:
    Worker(WorkerOptions options, MatchConfig config, QueueKeys keys)
        : options_(std::move(options)), config_(std::move(config)), keys_(std::move(keys)), tally_(config_) {
        timeouts_ = config_.timeouts;
        timeouts_.abort = &abort_;
    }

    int run() {
        SignalWatcher watcher([this] {
            interrupted_ = true;
            fail("interrupted");
        });
        {
            Heartbeat heartbeat(options_.address, keys_, options_.consumer, options_.reclaim_after);
            std::vector<std::thread> threads;
            for (int t = 0; t < options_.concurrency; ++t)
                threads.emplace_back([this, &heartbeat] { play_loop(heartbeat); });
            for (auto& t : threads) t.join();
        }
        watcher.stop();
        spdlog::info("worker {}: {} games played; {}", options_.consumer, games_played_.load(),
                     !error_.empty()            ? error_
                     : !restart_reason_.empty() ? restart_reason_
                                                : "the match is over");
        if (interrupted_) return 130;  // a Job restarts it; its pair is reclaimed
        return error_.empty() && restart_reason_.empty() ? 0 : 1;
    }

private:
    void fail(const std::string& message) {
        std::lock_guard lock(mutex_);
        if (error_.empty()) error_ = message;
        abort_ = true;
    }
    [[nodiscard]] bool stopping() {
        std::lock_guard lock(mutex_);
        return !error_.empty() || !restart_reason_.empty();
    }
    // The worker must load the match again: it takes no more pairs, finishes the ones it plays and exits 1.
    void restart(const std::string& reason) {
        std::lock_guard lock(mutex_);
        if (restart_reason_.empty()) restart_reason_ = reason;
    }

    void play_loop(Heartbeat& heartbeat) {
        auto redis = RedisClient::connect(options_.address, 10s);
        if (!redis) return fail(redis.error().message);
        std::vector<std::unique_ptr<EnginePlayer>> players;
        for (const auto& e : config_.engines) players.push_back(make_player(e, timeouts_));
        while (!stopping()) {
            auto stop = redis->command({"EXISTS", keys_.stop});
            if (!stop) return fail(stop.error().message);
            if (stop->integer == 1) break;
            auto item = take_item(*redis, keys_, options_.consumer, options_.reclaim_after, 1000ms);
            if (!item) return fail(item.error().message);
            if (!*item) continue;
            if (stopping()) break;  // taken while another thread asked to stop: left for another worker
            heartbeat.hold((*item)->id, true);
            const bool done = play_pair(*redis, **item, players);
            heartbeat.hold((*item)->id, false);
            if (!done) break;
            if (auto ack = redis->command({"XACK", keys_.items, kWorkerGroup, (*item)->id}); !ack)
                return fail(ack.error().message);
        }
        for (auto& p : players) p->stop();
    }

    // Plays both games of a pair and adds their results; false when the worker must stop (the pair is
    // then left pending, for another worker).
    bool play_pair(RedisClient& redis, const StreamEntry& item, std::vector<std::unique_ptr<EnginePlayer>>& players) {
        const auto it = item.fields.find("games");
        const std::vector<int> games = it == item.fields.end() ? std::vector<int>{} : parse_games(it->second);
        if (games.empty()) spdlog::warn("worker {}: pair {} names no games; skipped", options_.consumer, item.id);
        for (int g : games) {  // all checked before any is played; the pair is left pending unless skipped
            if (tally_.in_match(g)) continue;
            const auto queued = queued_game(redis, keys_, config_.fingerprint, g);
            if (!queued) return fail(queued.error().message), false;
            if (*queued == QueuedGame::Grown) {
                restart("pair " + item.id + " has game " + std::to_string(g) +
                        ", which the match had not when this worker loaded it (a coordinator resumed it with more "
                        "games): restart the worker");
                return false;
            }
            if (*queued == QueuedGame::OtherMatch) {
                fail("the queue holds another match now (pair " + item.id + "); this worker stops");
                return false;
            }
        }
        for (int g : games) {
            if (!tally_.in_match(g)) {
                spdlog::warn("worker {}: pair {} names game {}, not in this match; skipped", options_.consumer, item.id,
                             g);
                continue;
            }
            const auto [a, b] = tally_.game_engines(g);
            GameSettings settings{{config_.engines[a].tc, config_.engines[b].tc}, timeouts_};
            auto result = play_game(tally_.game_spec(g), {players[a].get(), players[b].get()}, settings, abort_);
            if (!result) return false;
            if (result->fault == Fault::StartFailed) {
                const std::size_t e = result->faulty_engine == 0 ? a : b;
                fail("cannot start engine " + config_.engines[e].name + ": " + result->detail);
                return false;
            }
            const int pairing = locate_game(g, tally_.pairings()).pairing;
            const std::string ggf =
                game_to_ggf_line(*result, tally_.pair_names(tally_.pairing(pairing)), ggf_date_now());
            auto added = redis.command({"XADD", keys_.results, "*", "game", std::to_string(g), "log",
                                        result_log_line(*result), "ggf", ggf, "worker", options_.consumer});
            if (!added) {
                fail(added.error().message);
                return false;
            }
            ++games_played_;
        }
        return true;
    }

    WorkerOptions options_;
    MatchConfig config_;
    QueueKeys keys_;
    MatchTally tally_;  // read only: the schedule and game set-up
    PlayerTimeouts timeouts_;
    std::atomic<bool> abort_{false};
    std::atomic<bool> interrupted_{false};  // SIGINT/SIGTERM
    std::atomic<int> games_played_{0};
    std::mutex mutex_;
    std::string error_;           // guarded by mutex_
    std::string restart_reason_;  // guarded by mutex_; set: the worker restarts (restart())
};

// Waits for the match on the queue, then builds it from the coordinator's command line.
Expected<std::pair<MatchConfig, QueueKeys>> load_match(const WorkerOptions& options) {
    auto redis = RedisClient::connect(options.address, 10s);
    if (!redis) return redis.error();
    const QueueKeys keys(options.address.name, "pairs");
    if (auto waited = wait_out_stop(*redis, keys, options.address.name); !waited) return waited.error();
    auto job = wait_for_job(*redis, keys, options.address.name);
    if (!job) return job.error();
    auto command = parse_match_command(job->args);
    if (command.exit_code) return make_error("the coordinator's command line does not parse here (above)");
    if (command.config.fingerprint != job->fingerprint)
        return make_error("the match differs here (" + command.config.fingerprint + ") from the coordinator's (" +
                          job->fingerprint + "): the same engines and opening files are needed");
    return std::pair{std::move(command.config), keys};
}

}  // namespace

int run_worker_command(const std::vector<std::string>& argv) {
    std::vector<std::string> tokens(argv.begin() + 1, argv.end());
    tokens[0] = "reversi-match worker";
    std::vector<char*> cargv;
    for (auto& t : tokens) cargv.push_back(t.data());
    auto parsed = cli::parse_command_line(kWorkerSpec, static_cast<int>(cargv.size()), cargv.data());
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    cli::init_logging("worker", args.get("log-level", "info"));
    const auto fail = [](const std::string& message, int code) {
        std::fprintf(stderr, "reversi-match worker: %s\n", message.c_str());
        return code;
    };
    if (!args.positional.empty()) return fail("unexpected argument '" + args.positional[0] + "'", 2);
    if (!args.has("queue")) return fail("give --queue redis://HOST:PORT/NAME", 2);
    auto address = parse_queue_url(args.get("queue", ""));
    if (!address) return fail(address.error().message, 2);
    auto reclaim = args.get_int("reclaim-after", 120, 1, 86400 * 7);
    if (!reclaim) return fail(reclaim.error().message, 2);
    WorkerOptions options;
    options.address = *address;
    options.reclaim_after = std::chrono::milliseconds(*reclaim * 1000);
    options.consumer = args.get("consumer", default_consumer_name());
    auto match = load_match(options);
    if (!match) return fail(match.error().message, 1);
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    int threads = 1;
    for (const auto& e : match->first.engines) threads = std::max(threads, e.threads);
    auto concurrency = args.get_int("concurrency", std::max(1, cores / threads), 1, 1024);
    if (!concurrency) return fail(concurrency.error().message, 2);
    options.concurrency = static_cast<int>(*concurrency);
    spdlog::info("worker {}: match {} ({} games), {} pairs at once", options.consumer, address->name,
                 MatchTally(match->first).total_games(), options.concurrency);
    Worker worker(options, std::move(match->first), std::move(match->second));
    return worker.run();
}

}  // namespace reversi::match
