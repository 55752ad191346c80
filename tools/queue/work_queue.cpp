#include "tools/queue/work_queue.hpp"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <set>

#include <spdlog/spdlog.h>

namespace reversi::queue {

using namespace std::chrono_literals;

std::vector<StreamEntry> stream_entries(const RedisReply& list) {
    std::vector<StreamEntry> out;
    for (const RedisReply& e : list.elements) {
        if (e.elements.size() != 2 || e.elements[1].type != RedisReply::Type::Array) continue;
        StreamEntry entry;
        entry.id = e.elements[0].text;
        const auto& kv = e.elements[1].elements;
        for (std::size_t i = 0; i + 1 < kv.size(); i += 2) entry.fields[kv[i].text] = kv[i + 1].text;
        out.push_back(std::move(entry));
    }
    return out;
}

std::vector<StreamEntry> read_reply_entries(const RedisReply& reply) {
    if (reply.type != RedisReply::Type::Array || reply.elements.empty()) return {};
    const RedisReply& stream = reply.elements[0];
    if (stream.elements.size() != 2) return {};
    return stream_entries(stream.elements[1]);
}

std::optional<std::string> string_value(const RedisReply& reply) {
    if (reply.type == RedisReply::Type::String || reply.type == RedisReply::Type::Status) return reply.text;
    return std::nullopt;
}

std::string default_consumer_name() {
    char host[256] = "worker";
    ::gethostname(host, sizeof host - 1);
    return std::string(host) + "-" + std::to_string(::getpid());
}

std::string join_args(const std::vector<std::string>& args) {
    std::string out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i) out += kArgsSeparator;
        out += args[i];
    }
    return out;
}

std::vector<std::string> split_args(const std::string& joined) {
    std::vector<std::string> out;
    if (joined.empty()) return out;
    std::size_t start = 0;
    for (;;) {  // every field, empty ones (a trailing one too) included: join_args' inverse
        const std::size_t end = joined.find(kArgsSeparator, start);
        out.push_back(joined.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) return out;
        start = end + 1;
    }
}

std::optional<std::string> args_error(const std::vector<std::string>& args) {
    for (const auto& a : args) {
        if (a.find(kArgsSeparator) != std::string::npos)
            return "the argument '" + a + "' holds the byte 0x1f, which the queue uses between arguments";
    }
    if (args.size() == 1 && args[0].empty()) return "a command line of one empty argument cannot be queued";
    return std::nullopt;
}

namespace {

// XADD of one work item (its fields) to the items stream.
std::vector<std::string> add_item_command(const QueueKeys& keys, const std::vector<std::string>& fields) {
    std::vector<std::string> cmd{"XADD", keys.items, "*"};
    cmd.insert(cmd.end(), fields.begin(), fields.end());
    return cmd;
}

// The commands that (re)build the queue for a job, the fingerprint last.
std::vector<std::vector<std::string>> build_commands(const QueueKeys& keys, const std::string& fingerprint,
                                                     const std::string& args,
                                                     const std::vector<std::vector<std::string>>& item_fields) {
    std::vector<std::vector<std::string>> cmds{{"DEL", keys.args, keys.items, keys.results, keys.stop},
                                               {"SET", keys.args, args},
                                               {"XGROUP", "CREATE", keys.items, kWorkerGroup, "0", "MKSTREAM"}};
    for (const auto& fields : item_fields) cmds.push_back(add_item_command(keys, fields));
    cmds.push_back({"SET", keys.fingerprint, fingerprint});
    return cmds;
}

}  // namespace

Expected<bool> open_job(RedisClient& redis, const QueueKeys& keys, const std::string& fingerprint,
                        const std::string& args, const std::vector<std::vector<std::string>>& item_fields) {
    // Check and build as one transaction: WATCH makes the EXEC fail when another coordinator wrote the
    // fingerprint meanwhile (two coordinators racing on an empty queue), and the loop then reads theirs.
    for (;;) {
        if (auto w = redis.command({"WATCH", keys.fingerprint}); !w) return w.error();
        auto existing = redis.command({"GET", keys.fingerprint});
        if (!existing) return existing.error();
        if (auto fp = string_value(*existing)) {
            (void)redis.command({"UNWATCH"});
            if (*fp != fingerprint)
                return make_error("the queue holds another job (" + *fp + "); give another name, or delete its keys");
            return true;
        }
        if (auto m = redis.command({"MULTI"}); !m) return m.error();
        for (const auto& cmd : build_commands(keys, fingerprint, args, item_fields)) {
            if (auto r = redis.command(cmd); !r) {
                (void)redis.command({"DISCARD"});
                return r.error();
            }
        }
        auto done = redis.command({"EXEC"});
        if (!done) return done.error();
        if (done->type != RedisReply::Type::Array) continue;  // nil: the fingerprint changed meanwhile, look again
        for (const RedisReply& r : done->elements) {          // a command of the transaction that failed
            if (r.type != RedisReply::Type::Error) continue;
            // The commands after it ran: the fingerprint, written last, would claim a whole queue.
            (void)redis.command({"DEL", keys.fingerprint});
            return make_error("building the queue: " + r.text);
        }
        return false;
    }
}

Expected<int> resume_job(RedisClient& redis, const QueueKeys& keys, const std::string& args,
                         const std::vector<std::vector<std::string>>& item_fields) {
    if (auto r = redis.command({"SET", keys.args, args}); !r) return r.error();
    // The stop flag goes first: a worker waiting at it (a minute at most) must not give up while a large
    // stream is read; workers that start now find the new pairs as they are added.
    if (auto r = redis.command({"DEL", keys.stop}); !r) return r.error();
    // The items on the stream, read in pages (a match of millions of games has that many items).
    std::set<std::map<std::string, std::string>> present;
    for (std::string from = "-";;) {
        auto listed = redis.command({"XRANGE", keys.items, from, "+", "COUNT", "10000"});
        if (!listed) return listed.error();
        auto entries = stream_entries(*listed);
        if (entries.empty()) break;
        from = "(" + entries.back().id;  // after the last one (an exclusive start, Redis 6.2 and later)
        for (auto& e : entries) present.insert(std::move(e.fields));
    }
    int added = 0;
    for (const auto& fields : item_fields) {
        std::map<std::string, std::string> as_map;
        for (std::size_t i = 0; i + 1 < fields.size(); i += 2) as_map[fields[i]] = fields[i + 1];
        if (present.count(as_map)) continue;
        if (auto r = redis.command(add_item_command(keys, fields)); !r) return r.error();
        ++added;
    }
    return added;
}

namespace {

// The value of `name` in a flat [name, value, ...] reply (XINFO), or nullptr.
const RedisReply* info_field(const RedisReply& flat, std::string_view name) {
    for (std::size_t i = 0; i + 1 < flat.elements.size(); i += 2) {
        if (flat.elements[i].text == name) return &flat.elements[i + 1];
    }
    return nullptr;
}

}  // namespace

Expected<bool> all_items_done(RedisClient& redis, const QueueKeys& keys) {
    auto stream = redis.command({"XINFO", "STREAM", keys.items});
    if (!stream) return stream.error();
    auto groups = redis.command({"XINFO", "GROUPS", keys.items});
    if (!groups) return groups.error();
    const RedisReply* last = info_field(*stream, "last-generated-id");
    for (const RedisReply& group : groups->elements) {
        const RedisReply* name = info_field(group, "name");
        if (name == nullptr || name->text != kWorkerGroup) continue;
        const RedisReply* pending = info_field(group, "pending");
        const RedisReply* delivered = info_field(group, "last-delivered-id");
        return last != nullptr && pending != nullptr && delivered != nullptr && pending->integer == 0 &&
               delivered->text == last->text;
    }
    return false;
}

Expected<std::size_t> MissingResults::after_empty_read(
    RedisClient& redis, const QueueKeys& keys, const std::function<std::vector<std::vector<std::string>>()>& missing) {
    if (!settled_) {
        auto done = all_items_done(redis, keys);
        if (!done) return done.error();
        settled_ = *done;
        return std::size_t{0};
    }
    settled_ = false;
    auto items = missing();
    if (items.empty()) return std::size_t{0};
    if (rounds_ == max_rounds_) {
        return make_error(std::to_string(items.size()) +
                          " work items still have no result after they were queued again " +
                          std::to_string(max_rounds_) + " times");
    }
    ++rounds_;
    for (auto& fields : items) {
        fields.insert(fields.end(), {"retry", std::to_string(rounds_)});
        if (auto added = redis.command(add_item_command(keys, fields)); !added) return added.error();
    }
    if (auto cleared = redis.command({"DEL", keys.stop}); !cleared) return cleared.error();
    return items.size();
}

Expected<JobArgs> wait_for_job(RedisClient& redis, const QueueKeys& keys, const std::string& name) {
    bool told = false;
    for (;;) {
        auto fp = redis.command({"GET", keys.fingerprint});
        if (!fp) return fp.error();
        if (auto fingerprint = string_value(*fp)) {
            auto args = redis.command({"GET", keys.args});
            if (!args) return args.error();
            return JobArgs{*fingerprint, split_args(string_value(*args).value_or(""))};
        }
        if (!told) spdlog::info("waiting for a job on queue {}", name);
        told = true;
        std::this_thread::sleep_for(1s);
    }
}

Expected<std::optional<StreamEntry>> take_item(RedisClient& redis, const QueueKeys& keys, const std::string& consumer,
                                               std::chrono::milliseconds reclaim_after,
                                               std::chrono::milliseconds block) {
    assert(block < RedisClient::kCommandTimeout);  // a blocking read must end before the reply limit
    auto claimed = redis.command(
        {"XAUTOCLAIM", keys.items, kWorkerGroup, consumer, std::to_string(reclaim_after.count()), "0-0", "COUNT", "1"});
    if (!claimed) return claimed.error();
    if (claimed->elements.size() >= 2) {
        auto entries = stream_entries(claimed->elements[1]);
        if (!entries.empty()) {
            spdlog::info("worker {}: item {} reclaimed: pending for at least {} s without its worker's heartbeat",
                         consumer, entries[0].id, reclaim_after.count() / 1000);
            return std::optional<StreamEntry>(std::move(entries[0]));
        }
    }
    auto read = redis.command({"XREADGROUP", "GROUP", kWorkerGroup, consumer, "COUNT", "1", "BLOCK",
                               std::to_string(block.count()), "STREAMS", keys.items, ">"});
    if (!read) return read.error();
    auto entries = read_reply_entries(*read);
    if (entries.empty()) return std::optional<StreamEntry>();
    return std::optional<StreamEntry>(std::move(entries[0]));
}

Heartbeat::Heartbeat(QueueAddress address, QueueKeys keys, std::string consumer,
                     std::chrono::milliseconds reclaim_after)
    : address_(std::move(address)),
      keys_(std::move(keys)),
      consumer_(std::move(consumer)),
      period_(std::max<std::chrono::milliseconds>(reclaim_after / 4, 50ms)),
      thread_([this] { loop(); }) {}

Heartbeat::~Heartbeat() {
    finished_ = true;
    thread_.join();
}

void Heartbeat::hold(const std::string& id, bool held) {
    std::lock_guard lock(mutex_);
    if (held) {
        held_.insert(id);
    } else {
        held_.erase(id);
    }
}

void Heartbeat::loop() {
    // A connection that failed (a timeout leaves hiredis's context unusable) is opened again at the next
    // period: without heartbeats the worker's items would be reclaimed and done twice.
    std::optional<RedisClient> redis;
    auto next = std::chrono::steady_clock::now();
    while (!finished_) {
        std::this_thread::sleep_for(20ms);
        const auto now = std::chrono::steady_clock::now();
        if (now < next) continue;
        next = now + period_;  // one period after this beat starts, however long it takes
        std::vector<std::string> cmd{"XCLAIM", keys_.items, kWorkerGroup, consumer_, "0"};
        {
            std::lock_guard lock(mutex_);
            if (held_.empty()) continue;
            cmd.insert(cmd.end(), held_.begin(), held_.end());
        }
        cmd.emplace_back("JUSTID");
        if (!redis) {
            auto connected = RedisClient::connect(address_, 10s);
            if (!connected) {
                spdlog::warn("worker {}: heartbeat: {}", consumer_, connected.error().message);
                continue;
            }
            redis.emplace(std::move(*connected));
        }
        if (auto r = redis->command(cmd); !r) {
            spdlog::warn("worker {}: heartbeat: {}", consumer_, r.error().message);
            if (redis->broken()) redis.reset();  // a connection error, not an error reply: reconnect
        }
    }
}

}  // namespace reversi::queue
