#pragma once
// A small synchronous Redis client (hiredis) for the distributed match and self-play (docs/scale.md): one connection,
// one command at a time, replies as plain values, every failure an error value. Not thread-safe: one
// client per thread.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/expected.hpp"

struct redisContext;

namespace reversi::queue {

struct RedisReply {
    // Error: an error inside an array (a command of a MULTI ... EXEC that failed); an error reply to a command
    // itself is an error value of command().
    enum class Type { Nil, String, Integer, Array, Status, Error };
    Type type = Type::Nil;
    std::string text;  // String, Status, Error
    long long integer = 0;
    std::vector<RedisReply> elements;  // Array
};

// redis://HOST:PORT/NAME: the server and the match's name (the prefix of its keys).
// A Redis with a password (`requirepass`, or an ACL user): the password and the user come from the
// environment, REVERSI_REDIS_PASSWORD and REVERSI_REDIS_USER, never from the command line (which the process
// list shows and the coordinator stores in Redis for its workers); every connection then starts with AUTH.
struct QueueAddress {
    std::string host;
    int port = 6379;
    std::string name;
    std::string user;      // empty: the default user
    std::string password;  // empty: no AUTH
};
[[nodiscard]] Expected<QueueAddress> parse_queue_url(std::string_view url);
inline constexpr const char* kRedisPasswordVariable = "REVERSI_REDIS_PASSWORD";
inline constexpr const char* kRedisUserVariable = "REVERSI_REDIS_USER";

class RedisClient {
public:
    // The longest wait for a reply (every blocking read here asks for at most a few seconds).
    static constexpr std::chrono::seconds kCommandTimeout{30};
    // Connects (within `timeout`); commands then wait at most kCommandTimeout for their reply.
    [[nodiscard]] static Expected<RedisClient> connect(const QueueAddress& address, std::chrono::milliseconds timeout);
    RedisClient(RedisClient&&) noexcept = default;
    RedisClient& operator=(RedisClient&&) noexcept = default;
    ~RedisClient();

    // One command, its arguments binary-safe. A Redis error reply is an error value.
    [[nodiscard]] Expected<RedisReply> command(const std::vector<std::string>& args);
    // The connection failed (an I/O error or a timeout): every later command fails; connect again.
    [[nodiscard]] bool broken() const noexcept;

private:
    struct Free {
        void operator()(redisContext* c) const noexcept;
    };
    explicit RedisClient(redisContext* c) : context_(c) {}
    std::unique_ptr<redisContext, Free> context_;
};

}  // namespace reversi::queue
