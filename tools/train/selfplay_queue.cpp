// Distributed self-play (docs/scale.md): `reversi-train selfplay ... --queue redis://HOST:PORT/NAME` puts the
// job's games on a Redis Stream in batches and writes the WTHOR file when every game has come back;
// `reversi-train selfplay-worker --queue ...` plays batches (tools/queue/work_queue.hpp). Game i depends
// only on the seed and i, so the file is the one a single machine writes with the same options. A result
// is checked (the moves replayed, the score recomputed) and kept once; a coordinator restarted with the
// same options continues from the results already on the stream.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "engine/board/variant.hpp"
#include "tools/queue/work_queue.hpp"
#include "tools/train/selfplay.hpp"

namespace reversi::train {

namespace {

using namespace std::chrono_literals;
using namespace queue;

constexpr std::size_t kBatchGames = 10;
// How many times the games still missing once every batch was played are queued again before the job fails.
constexpr std::size_t kMaxRequeues = 3;

// Game i as a worker reports it, checked: it starts with game i's opening, every move is legal (passes
// implied), the game is over and the score right.
Expected<data::WthorGame> game_from_result(const StreamEntry& e, const SelfPlayJob& job, std::size_t i) {
    auto moves = parse_transcript(e.field("moves"));
    if (!moves) return moves.error();
    Position pos = start_position();
    data::WthorGame game;
    for (Move m : *moves) {
        if (pos.must_pass()) pos = pos.pass();
        auto next = apply_move(pos, m);
        if (!next || m == kPass) return make_error("illegal move " + move_to_string(m));
        pos = *next;
        game.moves.push_back(m);
    }
    if (!pos.is_over()) return make_error("the game is not over");
    const auto& opening = selfplay_opening(job, i).moves;
    if (game.moves.size() < opening.size() || !std::equal(opening.begin(), opening.end(), game.moves.begin()))
        return make_error("it does not start with the game's opening");
    const int black = pos.side == Color::Black ? pos.final_score() : -pos.final_score();
    game.black_score = (black + 64) / 2;
    game.theoretical_black_score = game.black_score;
    if (e.field("score") != std::to_string(game.black_score)) return make_error("wrong score");
    return game;
}

// The batches of the games that have no result, as work items.
std::vector<std::vector<std::string>> missing_batches(const std::vector<bool>& have) {
    std::vector<std::vector<std::string>> items;
    for (std::size_t first = 0; first < have.size(); first += kBatchGames) {
        const std::size_t last = std::min(have.size(), first + kBatchGames);
        if (std::find(have.begin() + static_cast<std::ptrdiff_t>(first),
                      have.begin() + static_cast<std::ptrdiff_t>(last),
                      false) != have.begin() + static_cast<std::ptrdiff_t>(last))
            items.push_back({"first", std::to_string(first), "last", std::to_string(last)});
    }
    return items;
}

// The games that have come back: each result checked (game_from_result) and kept once.
struct SelfPlayResults {
    explicit SelfPlayResults(const SelfPlayJob& j) : job(j), played(j.games), have(j.games, false) {}

    void take(const StreamEntry& e) {
        std::size_t i = job.games;
        try {
            i = std::stoul(e.field("game"));
        } catch (const std::exception&) {
        }
        auto game = i < job.games ? game_from_result(e, job, i) : Expected<data::WthorGame>(make_error("no such game"));
        if (!game) {
            last_refusal = "game " + e.field("game") + " from " + e.field("worker") + ": " + game.error().message;
            spdlog::warn("selfplay: result {} from {} ignored: {}", e.id, e.field("worker"), game.error().message);
            return;
        }
        if (have[i]) {
            ++repeats;
            return;
        }
        played[i] = std::move(*game);
        have[i] = true;
        if (++done % 100 == 0 || done == job.games) spdlog::info("selfplay: {}/{} games", done, job.games);
    }

    const SelfPlayJob& job;
    std::vector<data::WthorGame> played;
    std::vector<bool> have;
    std::size_t done = 0, repeats = 0;
    std::string last_refusal = "none";
};

}  // namespace

int run_selfplay_queue(const SelfPlayJob& job, const std::string& queue_url) {
    const auto fail = [](const std::string& message) {
        std::fprintf(stderr, "reversi-train: selfplay: %s\n", message.c_str());
        return 1;
    };
    auto address = parse_queue_url(queue_url);
    if (!address) return fail(address.error().message);
    auto redis = RedisClient::connect(*address, 10s);
    if (!redis) return fail(redis.error().message);
    const QueueKeys keys(address->name, "batches");
    const auto batches = missing_batches(std::vector<bool>(job.games, false));  // every batch
    auto held = open_job(*redis, keys, job.fingerprint(), join_args(job.game_options()), batches);
    if (!held) return fail("queue " + address->name + ": " + held.error().message);
    spdlog::info("selfplay: queue {}: {} games in {} batches{}", address->name, job.games, batches.size(),
                 *held ? " (continuing)" : "");
    const auto t0 = std::chrono::steady_clock::now();
    SelfPlayResults results(job);
    MissingResults missing(kMaxRequeues);
    std::string last_id = "0";
    while (results.done < job.games) {
        auto reply = redis->command({"XREAD", "COUNT", "100", "BLOCK", "1000", "STREAMS", keys.results, last_id});
        if (!reply) return fail(reply.error().message);
        const auto entries = read_reply_entries(*reply);
        if (entries.empty()) {
            auto requeued = missing.after_empty_read(*redis, keys, [&] { return missing_batches(results.have); });
            if (!requeued) return fail(requeued.error().message + "; the last result refused: " + results.last_refusal);
            if (*requeued > 0) {
                spdlog::warn(
                    "selfplay: {} games have no result although every batch was played (lost or refused); their {} "
                    "batches are queued again",
                    job.games - results.done, *requeued);
            }
        }
        for (const StreamEntry& e : entries) {
            last_id = e.id;
            results.take(e);
        }
    }
    if (auto stop = redis->command({"SET", keys.stop, "1"}); !stop) spdlog::warn("{}", stop.error().message);
    if (results.repeats > 0) spdlog::info("selfplay: {} repeated results ignored", results.repeats);
    return write_selfplay_file(job, std::move(results.played),
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

namespace {

std::size_t index_field(const StreamEntry& e, const char* name) {
    try {
        return std::stoul(e.field(name));
    } catch (const std::exception&) {
        return 0;
    }
}

struct WorkerContext {
    const SelfPlayJob& job;
    QueueAddress address;
    QueueKeys keys;
    std::string consumer;
    std::chrono::milliseconds reclaim_after;
    Heartbeat& heartbeat;
    std::atomic<bool> failed{false};
    std::atomic<std::size_t> games{0};
};

// One worker thread: takes batches and plays them until the job is done; an error stops every thread.
Expected<bool> play_batches(WorkerContext& w) {
    auto redis = RedisClient::connect(w.address, 10s);
    if (!redis) return redis.error();
    SelfPlayEngine engine(w.job.selectivity);
    while (!w.failed) {
        auto stop = redis->command({"EXISTS", w.keys.stop});
        if (!stop) return stop.error();
        if (stop->integer == 1) return true;
        auto item = take_item(*redis, w.keys, w.consumer, w.reclaim_after, 1000ms);
        if (!item) return item.error();
        if (!*item) continue;
        const StreamEntry& batch = **item;
        w.heartbeat.hold(batch.id, true);
        const std::size_t last = std::min(w.job.games, index_field(batch, "last"));
        for (std::size_t i = index_field(batch, "first"); i < last && !w.failed; ++i) {
            auto game = play_selfplay_game(w.job, i, engine);
            if (!game) return game.error();
            auto added = redis->command({"XADD", w.keys.results, "*", "game", std::to_string(i), "moves",
                                         to_transcript(game->moves), "score", std::to_string(game->black_score),
                                         "worker", w.consumer});
            if (!added) return added.error();
            ++w.games;
        }
        w.heartbeat.hold(batch.id, false);
        if (w.failed) break;
        if (auto ack = redis->command({"XACK", w.keys.items, kWorkerGroup, batch.id}); !ack) return ack.error();
    }
    return true;
}

}  // namespace

int run_selfplay_worker(const cli::ParsedArgs& args) {
    const auto fail = [](const std::string& message, int code) {
        std::fprintf(stderr, "reversi-train: selfplay-worker: %s\n", message.c_str());
        return code;
    };
    auto address = parse_queue_url(args.get("queue", ""));
    if (!address) return fail(address.error().message, 2);
    const auto threads = args.get_int("threads", 1, 1, 256);
    const auto reclaim = args.get_int("reclaim-after", 120, 1, 86400 * 7);
    for (const auto* v : {&threads, &reclaim}) {
        if (!*v) return fail(v->error().message, 2);
    }
    auto redis = RedisClient::connect(*address, 10s);
    if (!redis) return fail(redis.error().message, 1);
    const QueueKeys keys(address->name, "batches");
    auto posted = wait_for_job(*redis, keys, address->name);
    if (!posted) return fail(posted.error().message, 1);
    cli::ParsedArgs job_args;  // "--name value" pairs (SelfPlayJob::game_options)
    for (std::size_t k = 0; k + 1 < posted->args.size(); k += 2)
        job_args.values[posted->args[k].substr(2)] = posted->args[k + 1];
    auto job = selfplay_job(job_args, false);
    if (!job) return fail("the job does not build here: " + job.error().message, 1);
    if (auto loaded = load_selfplay_openings(*job); !loaded) return fail(loaded.error().message, 1);
    if (job->fingerprint() != posted->fingerprint)
        return fail("the job differs here (" + job->fingerprint() + ") from the coordinator's (" + posted->fingerprint +
                        "): the same opening file is needed",
                    1);
    const std::string consumer = args.get("consumer", default_consumer_name());
    const auto reclaim_after = std::chrono::milliseconds(*reclaim * 1000);
    Heartbeat heartbeat(*address, keys, consumer, reclaim_after);
    WorkerContext context{*job, *address, keys, consumer, reclaim_after, heartbeat};
    std::mutex mutex;
    std::string error;
    const auto work = [&] {
        auto done = play_batches(context);
        if (done) return;
        context.failed = true;
        const std::lock_guard lock(mutex);
        if (error.empty()) error = done.error().message;
    };
    {
        std::vector<std::jthread> pool;
        for (long long t = 1; t < *threads; ++t) pool.emplace_back(work);
        work();
    }
    spdlog::info("selfplay-worker {}: {} games played", consumer, context.games.load());
    return error.empty() ? 0 : fail(error, 1);
}

}  // namespace reversi::train
