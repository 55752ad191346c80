#pragma once
// A job split into work items on Redis Streams, shared by the distributed match (tools/match/distributed.hpp)
// and distributed self-play (reversi-train selfplay --queue): one coordinator, any number of workers.
// The job NAME keeps these keys:
//   NAME:args         the coordinator's command line (tokens joined by \x1f): workers rebuild the same job
//   NAME:<items>      a stream of work items ("pairs", "batches"), read through the consumer group "workers"
//   NAME:results      a stream of results, one entry per finished unit (a game), in any order, repeats possible
//   NAME:fingerprint  the job's fingerprint, written last: a queue with it holds every work item
//   NAME:stop         set when the job is done: workers take no more items and exit
// A worker acknowledges an item after its results are on the results stream; a Heartbeat keeps the items
// it holds from being reclaimed; an item pending longer than the reclaim time (its worker died) is taken by
// another worker (XAUTOCLAIM) and done again. The coordinator keeps the first result of each unit.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tools/queue/redis_client.hpp"

namespace reversi::queue {

inline constexpr char kArgsSeparator = '\x1f';
inline constexpr const char* kWorkerGroup = "workers";

struct QueueKeys {
    QueueKeys(const std::string& name, const std::string& items_suffix)
        : args(name + ":args"),
          items(name + ":" + items_suffix),
          results(name + ":results"),
          fingerprint(name + ":fingerprint"),
          stop(name + ":stop") {}
    std::string args, items, results, fingerprint, stop;
};

// One stream entry: its id and fields.
struct StreamEntry {
    std::string id;
    std::map<std::string, std::string> fields;

    // A field's value, empty when absent.
    [[nodiscard]] std::string field(const std::string& name) const {
        const auto it = fields.find(name);
        return it == fields.end() ? std::string() : it->second;
    }
};

// The entries of an [id, [field, value, ...]] list (XRANGE, XAUTOCLAIM's second element); entries
// without fields (deleted meanwhile) are skipped.
[[nodiscard]] std::vector<StreamEntry> stream_entries(const RedisReply& list);
// The entries of one stream in an XREAD / XREADGROUP reply (nil: none).
[[nodiscard]] std::vector<StreamEntry> read_reply_entries(const RedisReply& reply);
// A string value, or nullopt for nil.
[[nodiscard]] std::optional<std::string> string_value(const RedisReply& reply);

// A worker's name in the consumer group unless given: "HOST-PID".
[[nodiscard]] std::string default_consumer_name();

[[nodiscard]] std::string join_args(const std::vector<std::string>& args);
[[nodiscard]] std::vector<std::string> split_args(const std::string& joined);
// Why a command line would not come back the same through join_args and split_args, or nullopt.
[[nodiscard]] std::optional<std::string> args_error(const std::vector<std::string>& args);

// Coordinator: a queue without this job's fingerprint is emptied and given `args`, the consumer group and
// the items (each one stream entry of the given fields), then the fingerprint, in one transaction (of two
// coordinators racing on one queue, one builds it and the other finds its fingerprint). Returns true when
// the queue already held the job (nothing is written then), false when it was (re)built. Another job's
// fingerprint is an error.
[[nodiscard]] Expected<bool> open_job(RedisClient& redis, const QueueKeys& keys, const std::string& fingerprint,
                                      const std::string& args,
                                      const std::vector<std::vector<std::string>>& item_fields);

// Coordinator, resuming a job the queue holds: its command line becomes `args` (what the fingerprint leaves
// out may have changed: more games, another stopping rule), the items not in the stream are added, and the
// stop flag is cleared (the coordinator sets it again once the job is over). Returns the items added.
[[nodiscard]] Expected<int> resume_job(RedisClient& redis, const QueueKeys& keys, const std::string& args,
                                       const std::vector<std::vector<std::string>>& item_fields);

// Worker: waits (polling each second) until the queue holds a job; its fingerprint and command line.
struct JobArgs {
    std::string fingerprint;
    std::vector<std::string> args;
};
[[nodiscard]] Expected<JobArgs> wait_for_job(RedisClient& redis, const QueueKeys& keys, const std::string& name);

// Worker: the next item for `consumer`: one that has been pending longer than `reclaim_after` first, else a
// new one (waits up to `block`). nullopt: none yet.
[[nodiscard]] Expected<std::optional<StreamEntry>> take_item(RedisClient& redis, const QueueKeys& keys,
                                                             const std::string& consumer,
                                                             std::chrono::milliseconds reclaim_after,
                                                             std::chrono::milliseconds block);

// Coordinator: every item of the stream has been handed to a worker and acknowledged (so every result of
// them is on the results stream).
[[nodiscard]] Expected<bool> all_items_done(RedisClient& redis, const QueueKeys& keys);

// Coordinator: results that will never come (an entry deleted from the results stream, or refused by the
// coordinator). Called after each read of the results stream that came back empty: once every item has
// been handed out and acknowledged (all_items_done) and a read after that is empty too, every result there
// will be has been read, and the items of the results still missing (`missing()`, each item's fields) are
// queued again, each with a "retry" field (so that it differs from the first one), and the stop flag is
// cleared. Returns how many items were queued again; an error once `max_rounds` rounds have not brought
// the missing results (a worker whose results are refused every time). Before it, a coordinator waited for
// ever.
class MissingResults {
public:
    explicit MissingResults(std::size_t max_rounds) : max_rounds_(max_rounds) {}
    [[nodiscard]] Expected<std::size_t> after_empty_read(
        RedisClient& redis, const QueueKeys& keys,
        const std::function<std::vector<std::vector<std::string>>()>& missing);

private:
    std::size_t max_rounds_;
    std::size_t rounds_ = 0;
    bool settled_ = false;  // every item done, seen after an empty read
};

// Worker: resets the idle time of the items this worker holds every quarter of `reclaim_after`, on its own
// connection and thread, so that a long item is never reclaimed from a live worker.
class Heartbeat {
public:
    Heartbeat(QueueAddress address, QueueKeys keys, std::string consumer, std::chrono::milliseconds reclaim_after);
    ~Heartbeat();
    Heartbeat(const Heartbeat&) = delete;
    Heartbeat& operator=(const Heartbeat&) = delete;
    void hold(const std::string& id, bool held);

private:
    void loop();
    QueueAddress address_;
    QueueKeys keys_;
    std::string consumer_;
    std::chrono::milliseconds period_;
    std::mutex mutex_;
    std::set<std::string> held_;  // guarded by mutex_
    std::atomic<bool> finished_{false};
    std::thread thread_;
};

}  // namespace reversi::queue
