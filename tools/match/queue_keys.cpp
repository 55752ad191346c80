#include "tools/match/queue_keys.hpp"

namespace reversi::match {

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

}  // namespace reversi::match
