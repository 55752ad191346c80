#pragma once
// The keys and stream entries of a distributed match (distributed.hpp), shared by the coordinator and the
// workers.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/match/redis_client.hpp"

namespace reversi::match {

inline constexpr char kArgsSeparator = '\x1f';
inline constexpr const char* kWorkerGroup = "workers";

struct QueueKeys {
    explicit QueueKeys(const std::string& name)
        : args(name + ":args"),
          pairs(name + ":pairs"),
          results(name + ":results"),
          fingerprint(name + ":fingerprint"),
          stop(name + ":stop") {}
    std::string args, pairs, results, fingerprint, stop;
};

// One stream entry: its id and fields.
struct StreamEntry {
    std::string id;
    std::map<std::string, std::string> fields;
};

// The entries of an [id, [field, value, ...]] list (XRANGE, XAUTOCLAIM's second element); entries
// without fields (deleted meanwhile) are skipped.
[[nodiscard]] std::vector<StreamEntry> stream_entries(const RedisReply& list);
// The entries of one stream in an XREAD / XREADGROUP reply (nil: none).
[[nodiscard]] std::vector<StreamEntry> read_reply_entries(const RedisReply& reply);

// A string value, or nullopt for nil.
[[nodiscard]] std::optional<std::string> string_value(const RedisReply& reply);

}  // namespace reversi::match
