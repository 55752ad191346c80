#include "tools/queue/redis_client.hpp"

#include <hiredis/hiredis.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "protocol/text/tokens.hpp"

namespace reversi::queue {

Expected<QueueAddress> parse_queue_url(std::string_view url) {
    constexpr std::string_view scheme = "redis://";
    if (url.substr(0, scheme.size()) != scheme) return make_error("--queue: expected redis://HOST:PORT/NAME");
    std::string_view rest = url.substr(scheme.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash + 1 >= rest.size())
        return make_error("--queue: the match needs a name: redis://HOST:PORT/NAME");
    QueueAddress a;
    a.name = std::string(rest.substr(slash + 1));
    for (const char c : a.name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            return make_error("--queue: the name may hold letters, digits, '-', '_' and '.' only");
    }
    std::string_view hostport = rest.substr(0, slash);
    const std::size_t colon = hostport.rfind(':');
    a.host = std::string(hostport.substr(0, colon));
    if (colon != std::string_view::npos) {
        auto port = text::parse_integer(hostport.substr(colon + 1), 1, 65535, "--queue port");
        if (!port) return port.error();
        a.port = static_cast<int>(*port);
    }
    if (a.host.empty()) return make_error("--queue: expected redis://HOST:PORT/NAME");
    if (const char* password = std::getenv(kRedisPasswordVariable)) a.password = password;
    if (const char* user = std::getenv(kRedisUserVariable)) a.user = user;
    if (!a.user.empty() && a.password.empty())
        return make_error(std::string(kRedisUserVariable) + " is set without " + kRedisPasswordVariable);
    return a;
}

void RedisClient::Free::operator()(redisContext* c) const noexcept { redisFree(c); }

RedisClient::~RedisClient() = default;

bool RedisClient::broken() const noexcept { return context_->err != 0; }

Expected<RedisClient> RedisClient::connect(const QueueAddress& address, std::chrono::milliseconds timeout) {
    timeval tv{static_cast<time_t>(timeout.count() / 1000), static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
    redisContext* c = redisConnectWithTimeout(address.host.c_str(), address.port, tv);
    if (!c) return make_error("redis: out of memory");
    if (c->err) {
        std::string why = c->errstr;
        redisFree(c);
        return make_error("cannot connect to redis at " + address.host + ":" + std::to_string(address.port) + ": " +
                          why);
    }
    // A reply that takes longer than kCommandTimeout (a Redis that stopped answering without closing the
    // connection) is an error, as is a peer that TCP keepalive finds gone: the coordinator and the workers
    // then exit (a Job restarts them) instead of waiting for ever, deaf to SIGINT and SIGTERM.
    const timeval limit{static_cast<time_t>(kCommandTimeout.count()), 0};
    redisSetTimeout(c, limit);
    redisEnableKeepAlive(c);
    RedisClient client(c);
    if (!address.password.empty()) {
        std::vector<std::string> auth{"AUTH"};
        if (!address.user.empty()) auth.push_back(address.user);
        auth.push_back(address.password);
        if (auto r = client.command(auth); !r)
            return make_error(r.error().message + " (the credentials of " + kRedisPasswordVariable + ")");
    }
    return client;
}

namespace {

RedisReply convert(const redisReply* r) {
    RedisReply out;
    switch (r->type) {
        case REDIS_REPLY_STRING:
        case REDIS_REPLY_STATUS:
            out.type = r->type == REDIS_REPLY_STATUS ? RedisReply::Type::Status : RedisReply::Type::String;
            out.text.assign(r->str, r->len);
            break;
        case REDIS_REPLY_INTEGER:
            out.type = RedisReply::Type::Integer;
            out.integer = r->integer;
            break;
        case REDIS_REPLY_ERROR:
            out.type = RedisReply::Type::Error;
            out.text.assign(r->str, r->len);
            break;
        case REDIS_REPLY_ARRAY:
            out.type = RedisReply::Type::Array;
            for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
            break;
        default:
            break;
    }
    return out;
}

}  // namespace

Expected<RedisReply> RedisClient::command(const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const auto& a : args) {
        argv.push_back(a.data());
        lengths.push_back(a.size());
    }
    auto* reply = static_cast<redisReply*>(
        redisCommandArgv(context_.get(), static_cast<int>(args.size()), argv.data(), lengths.data()));
    if (!reply) {
        const std::string why = context_->errstr;
        const bool io_timeout =
            context_->err == REDIS_ERR_IO && (why == std::strerror(EAGAIN) || why == std::strerror(EWOULDBLOCK));
#ifdef REDIS_ERR_TIMEOUT
        const bool timeout = io_timeout || context_->err == REDIS_ERR_TIMEOUT;  // hiredis 1.0 and later
#else
        const bool timeout = io_timeout;  // hiredis 0.14 (Debian 12): the read's EAGAIN
#endif
        if (timeout)
            return make_error("redis " + args.front() + ": no reply within " + std::to_string(kCommandTimeout.count()) +
                              " s");
        return make_error("redis " + args.front() + ": " + why);
    }
    std::unique_ptr<redisReply, void (*)(void*)> owned(reply, freeReplyObject);
    if (reply->type == REDIS_REPLY_ERROR) {
        const std::string text(reply->str, reply->len);
        const char* hint = text.starts_with("NOAUTH") ? " (give its password in REVERSI_REDIS_PASSWORD)" : "";
        return make_error("redis " + args.front() + ": " + text + hint);
    }
    return convert(reply);
}

}  // namespace reversi::queue
