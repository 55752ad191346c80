// The coordinator of a distributed match (distributed.hpp).
#include <atomic>
#include <chrono>
#include <cstdio>

#include <spdlog/spdlog.h>

#include "tools/match/distributed.hpp"
#include "tools/match/match_tally.hpp"
#include "tools/match/progress.hpp"
#include "tools/match/result_store.hpp"
#include "tools/match/signal_watcher.hpp"
#include "tools/queue/work_queue.hpp"

namespace reversi::match {

namespace {

using namespace queue;

constexpr auto kConnectTimeout = std::chrono::seconds(10);
constexpr const char* kReadBlockMs = "500";
// How many times the pairs whose games have no result once every pair was played are queued again before
// the match fails.
constexpr std::size_t kMaxRequeues = 3;

class Coordinator {
public:
    Coordinator(const MatchConfig& config, const QueueAddress& address, ResultStore store, RedisClient redis)
        : config_(config),
          address_(address),
          keys_(address.name, "pairs"),
          store_(std::move(store)),
          redis_(std::move(redis)),
          tally_(config),
          progress_(config.progress),
          started_(std::chrono::steady_clock::now()) {
        for (const auto& r : store_.previous()) {
            if (tally_.in_match(r.index) && !tally_.recorded(r.index)) tally_.record(r);
        }
    }

    int run(const std::string& args) {
        SignalWatcher watcher([this] { interrupted_ = true; });
        auto prepared = prepare(args);
        if (!prepared) return fail(prepared.error().message);
        spdlog::info("queue {} at {}:{}: {} of {} games recorded", address_.name, address_.host, address_.port,
                     tally_.recorded_count(), tally_.total_games());
        std::string last_id = "0";  // every result again: those that came while no coordinator ran
        while (!interrupted_ && !over()) {
            auto reply =
                redis_.command({"XREAD", "COUNT", "100", "BLOCK", kReadBlockMs, "STREAMS", keys_.results, last_id});
            if (!reply) return fail(reply.error().message);
            const auto entries = read_reply_entries(*reply);
            if (entries.empty()) {
                auto requeued = missing_.after_empty_read(redis_, keys_, [this] { return unfinished_pairs(); });
                if (!requeued)
                    return fail(requeued.error().message + "; the last results entry refused: " + last_refusal_);
                if (*requeued > 0) {
                    spdlog::warn(
                        "{} games have no result although every pair was played (lost or refused); their {} pairs "
                        "are queued again",
                        tally_.total_games() - tally_.recorded_count(), *requeued);
                }
            }
            for (const StreamEntry& e : entries) {
                last_id = e.id;
                if (auto recorded = record(e); !recorded) return fail(recorded.error().message);
            }
        }
        watcher.stop();
        progress_.finish();
        if (over()) {
            if (auto stop = redis_.command({"SET", keys_.stop, "1"}); !stop) spdlog::warn("{}", stop.error().message);
        }
        if (duplicates_ > 0) spdlog::info("{} results of games already recorded were ignored", duplicates_);
        if (interrupted_) {
            std::fprintf(stderr,
                         "reversi-match: interrupted with %d games recorded; the workers go on; continue with "
                         "--resume\n",
                         tally_.recorded_count());
        }
        tally_.report(!interrupted_, seconds());
        return interrupted_ ? 130 : 0;
    }

private:
    [[nodiscard]] bool over() const { return tally_.recorded_count() == tally_.total_games() || tally_.decided(); }
    [[nodiscard]] double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    }

    int fail(const std::string& message) {
        progress_.finish();
        std::fprintf(stderr, "reversi-match: %s\n", message.c_str());
        return 1;
    }

    // The pairs with a game not yet recorded, as work items ("games": "G" or "G,G+1").
    [[nodiscard]] std::vector<std::vector<std::string>> unfinished_pairs() const {
        std::vector<std::vector<std::string>> pairs;
        for (int g : tally_.schedule()) {
            if (locate_game(g, tally_.pairings()).local % 2 != 0) continue;
            std::string games = std::to_string(g);
            const bool second = tally_.in_match(g + 1);
            if (second) {
                games += ',';
                games += std::to_string(g + 1);
            }
            if (tally_.recorded(g) && (!second || tally_.recorded(g + 1))) continue;
            pairs.push_back({"games", games});
        }
        return pairs;
    }

    // A queue without this match is (re)built with its pairs (those with a game not yet recorded); one that
    // holds it is resumed (--resume): the command line rewritten, the pairs not on the stream added and the
    // stop flag cleared (resume_job). The pairs of results refused by record() or lost from the stream are
    // queued again once every pair has been played (MissingResults).
    Expected<bool> prepare(const std::string& args) {
        const auto pairs = unfinished_pairs();
        auto held = open_job(redis_, keys_, config_.fingerprint, args, pairs);
        if (!held) return make_error("queue " + address_.name + ": " + held.error().message);
        if (*held && !config_.resume)
            return make_error("queue " + address_.name + " already holds this match: continue with --resume");
        if (!*held) {
            spdlog::info("queue {}: {} colour pairs to play", address_.name, pairs.size());
            return true;
        }
        // Resumed: --games may have grown and --sprt changed (neither is in the fingerprint), and a match
        // that was over has its stop flag set; without this the workers would never see the new pairs.
        auto added = resume_job(redis_, keys_, args, pairs);
        if (!added) return make_error("queue " + address_.name + ": " + added.error().message);
        if (*added > 0) spdlog::info("queue {}: {} colour pairs added", address_.name, *added);
        return true;
    }

    // One result from a worker: recorded unless its game already is (a pair played twice).
    Expected<bool> record(const StreamEntry& e) {
        auto result = parse_result_log_line(e.field("log"));
        if (!result || !tally_.in_match(result->index) || !one_line(e.field("ggf")) || !one_line(e.field("log")) ||
            !as_scheduled(*result, e.field("ggf"))) {
            spdlog::warn("results entry {} from worker {} is not a game of this match; ignored", e.id,
                         e.field("worker"));
            last_refusal_ = "entry " + e.id + " from worker " + e.field("worker");
            return true;
        }
        if (tally_.recorded(result->index)) {
            ++duplicates_;
            return true;
        }
        auto appended = store_.append_lines(e.field("ggf"), e.field("log"));
        if (!appended) return appended.error();
        tally_.record(*result);
        ++played_this_run_;
        progress_.update(tally_.recorded_count(), tally_.total_games(), played_this_run_,
                         tally_.statistics(locate_game(result->index, tally_.pairings()).pairing));
        return true;
    }

    // A results log line or GGF game as a worker writes it: one line, not empty, of a sane size (a line
    // break would put a second, unchecked line in the coordinator's files).
    [[nodiscard]] static bool one_line(const std::string& text) {
        return !text.empty() && text.size() <= kMaxResultBytes && text.find_first_of("\r\n") == std::string::npos;
    }
    // The game was played from its scheduled opening (its number, and its board and moves in the GGF record)
    // with its scheduled colours.
    [[nodiscard]] bool as_scheduled(const GameResult& r, const std::string& ggf) const {
        const GameSpec spec = tally_.game_spec(r.index);
        return r.opening_index == spec.opening_index && r.black == spec.black &&
               ggf_starts_at(ggf, spec.opening.start, spec.opening.moves);
    }
    static constexpr std::size_t kMaxResultBytes = 1 << 20;

    const MatchConfig& config_;
    QueueAddress address_;
    QueueKeys keys_;
    ResultStore store_;
    RedisClient redis_;
    MatchTally tally_;
    ProgressLine progress_;
    std::chrono::steady_clock::time_point started_;
    std::atomic<bool> interrupted_{false};
    MissingResults missing_{kMaxRequeues};
    std::string last_refusal_ = "none";
    int played_this_run_ = 0;
    int duplicates_ = 0;
};

}  // namespace

int run_coordinator(const MatchConfig& config, const std::string& queue_url, const std::vector<std::string>& argv) {
    auto address = parse_queue_url(queue_url);
    if (!address) {
        std::fprintf(stderr, "reversi-match: %s\n", address.error().message.c_str());
        return 2;
    }
    if (auto why = args_error(argv)) {
        std::fprintf(stderr, "reversi-match: --queue: %s\n", why->c_str());
        return 2;
    }
    // Redis first: a coordinator that cannot reach it leaves no empty results files behind.
    auto redis = RedisClient::connect(*address, kConnectTimeout);
    if (!redis) {
        std::fprintf(stderr, "reversi-match: %s\n", redis.error().message.c_str());
        return 1;
    }
    auto store = ResultStore::open(config.out_prefix, config.fingerprint, config.resume, config.overwrite);
    if (!store) {
        std::fprintf(stderr, "reversi-match: %s\n", store.error().message.c_str());
        return 1;
    }
    Coordinator coordinator(config, *address, std::move(*store), std::move(*redis));
    return coordinator.run(join_args(argv));
}

}  // namespace reversi::match
