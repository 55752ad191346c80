#include "tools/queue/work_queue.hpp"

#include <unistd.h>

#include <sstream>

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
    std::string cur;
    std::istringstream in(joined);
    while (std::getline(in, cur, kArgsSeparator)) out.push_back(cur);
    return out;
}

Expected<bool> open_job(RedisClient& redis, const QueueKeys& keys, const std::string& fingerprint,
                        const std::string& args, const std::vector<std::vector<std::string>>& item_fields) {
    auto existing = redis.command({"GET", keys.fingerprint});
    if (!existing) return existing.error();
    if (auto fp = string_value(*existing)) {
        if (*fp != fingerprint)
            return make_error("the queue holds another job (" + *fp + "); give another name, or delete its keys");
        return true;
    }
    for (const auto& cmd :
         std::vector<std::vector<std::string>>{{"DEL", keys.args, keys.items, keys.results, keys.stop},
                                               {"SET", keys.args, args},
                                               {"XGROUP", "CREATE", keys.items, kWorkerGroup, "0", "MKSTREAM"}}) {
        if (auto r = redis.command(cmd); !r) return r.error();
    }
    for (const auto& fields : item_fields) {
        std::vector<std::string> cmd{"XADD", keys.items, "*"};
        cmd.insert(cmd.end(), fields.begin(), fields.end());
        if (auto r = redis.command(cmd); !r) return r.error();
    }
    if (auto r = redis.command({"SET", keys.fingerprint, fingerprint}); !r) return r.error();
    return false;
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
    auto claimed = redis.command(
        {"XAUTOCLAIM", keys.items, kWorkerGroup, consumer, std::to_string(reclaim_after.count()), "0-0", "COUNT", "1"});
    if (!claimed) return claimed.error();
    if (claimed->elements.size() >= 2) {
        auto entries = stream_entries(claimed->elements[1]);
        if (!entries.empty()) {
            spdlog::info("worker {}: item {} reclaimed from a worker that stopped", consumer, entries[0].id);
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
    auto redis = RedisClient::connect(address_, 10s);
    if (!redis) {
        spdlog::warn("worker {}: heartbeat: {}", consumer_, redis.error().message);
        return;
    }
    auto next = std::chrono::steady_clock::now() + period_;
    while (!finished_) {
        std::this_thread::sleep_for(20ms);
        if (std::chrono::steady_clock::now() < next) continue;
        next += period_;
        std::vector<std::string> cmd{"XCLAIM", keys_.items, kWorkerGroup, consumer_, "0"};
        {
            std::lock_guard lock(mutex_);
            if (held_.empty()) continue;
            cmd.insert(cmd.end(), held_.begin(), held_.end());
        }
        cmd.emplace_back("JUSTID");
        if (auto r = redis->command(cmd); !r) spdlog::warn("worker {}: heartbeat: {}", consumer_, r.error().message);
    }
}

}  // namespace reversi::queue
