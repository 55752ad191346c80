// --engine token parsing (see engine_spec.hpp).
#include "tools/match/engine_spec.hpp"

#include <charconv>
#include <optional>
#include <sstream>

#include "protocol/text/printable.hpp"

namespace reversi::match {

namespace {

std::vector<std::string> split_words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    std::string w;
    while (in >> w) out.push_back(w);
    return out;
}

template <class T>
Expected<T> parse_number(const std::string& key, const std::string& value, T min, T max) {
    T v{};
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || v < min || v > max) {
        return make_error(key + "=" + value + ": expected a number from " + std::to_string(min) + " to " +
                          std::to_string(max));
    }
    return v;
}

// The engine's connection as given (cmd= or tcp=), checked once every token is read.
struct ConnectionText {
    std::string cmd;
    std::string tcp;
};

using MaybeError = std::optional<Error>;

// option.Name=Value: a later value for the same name replaces the earlier one (--each, then the engine's own).
MaybeError add_option(EngineConfig& e, const std::string& key, const std::string& value) {
    const std::string name = key.substr(7);
    bool replaced = false;
    for (auto& [n, v] : e.options) {
        if (n == name) {
            v = value;
            replaced = true;
        }
    }
    if (!replaced) e.options.emplace_back(name, value);
    if (name != "Threads") return std::nullopt;
    auto t = parse_number<int>(key, value, 1, 1024);
    if (!t) return t.error();
    e.threads = *t;
    return std::nullopt;
}

template <class T, class Set>
MaybeError set_number(const std::string& key, const std::string& value, T min, T max, Set set) {
    auto v = parse_number<T>(key, value, min, max);
    if (!v) return v.error();
    set(*v);
    return std::nullopt;
}

[[nodiscard]] bool is_limit(const std::string& key) {
    return key == "depth" || key == "nodes" || key == "movetime" || key == "tc" || key == "timemargin";
}

// depth=, nodes=, movetime=, tc=, timemargin= (is_limit(key)).
MaybeError set_limit(TimeControl& tc, const std::string& key, const std::string& value) {
    if (key == "depth") return set_number<int>(key, value, 0, 60, [&](int v) { tc.depth = v; });
    if (key == "nodes") {
        return set_number<std::uint64_t>(key, value, 1, std::uint64_t{1} << 62, [&](std::uint64_t v) { tc.nodes = v; });
    }
    if (key == "movetime") {
        return set_number<long long>(key, value, 1, 86400000, [&](long long v) { tc.movetime = Millis(v); });
    }
    if (key == "timemargin") {
        return set_number<long long>(key, value, 0, 3600000, [&](long long v) { tc.margin = Millis(v); });
    }
    auto clock = parse_clock(value, tc);
    if (!clock) return clock.error();
    tc = *clock;
    return std::nullopt;
}

MaybeError set_protocol(EngineConfig& e, const std::string& value) {
    if (value == "uci") {
        e.protocol = Protocol::Uci;
    } else if (value == "nboard") {
        e.protocol = Protocol::NBoard;
    } else {
        return make_error("proto=" + value + ": expected uci or nboard");
    }
    return std::nullopt;
}

// The keys of the engine itself and its process: name=, cmd=, tcp=, ponder=, transcript=, stderr=, dir=;
// any other key is unknown.
MaybeError set_engine_key(EngineConfig& e, ConnectionText& connection, const std::string& key, const std::string& value,
                          int number) {
    if (key == "name") {
        if (value.empty()) return make_error("empty engine name");
        // Names go into the log's header line, the GGF records and the JSON summary: one line of text.
        if (text::printable(value, 200) != value)
            return make_error("name=" + text::printable(value, 200) +
                              ": a name is printable UTF-8 text of at most 200 bytes");
        e.name = value;
    } else if (key == "cmd") {
        connection.cmd = value;
    } else if (key == "tcp") {
        connection.tcp = value;
    } else if (key == "ponder") {
        if (value != "true" && value != "false") return make_error("ponder=" + value + ": expected true or false");
        e.ponder = value == "true";
    } else if (key == "transcript") {
        if (value.empty()) return make_error("transcript=: expected a file name");
        e.endpoint.transcript_file = value;
    } else if (key == "stderr") {
        e.endpoint.stderr_file = value;
    } else if (key == "dir") {
        e.endpoint.working_dir = value;
    } else {
        return make_error("engine " + std::to_string(number + 1) + ": unknown key '" + key + "'");
    }
    return std::nullopt;
}

MaybeError apply_token(EngineConfig& e, ConnectionText& connection, const std::string& token, int number) {
    const auto eq = token.find('=');
    if (eq == std::string::npos || eq == 0) {
        return make_error("engine " + std::to_string(number + 1) + ": expected key=value, got '" + token + "'");
    }
    const std::string key = token.substr(0, eq);
    const std::string value = token.substr(eq + 1);
    if (key == "proto") return set_protocol(e, value);
    if (key.rfind("option.", 0) == 0 && key.size() > 7) return add_option(e, key, value);
    if (is_limit(key)) return set_limit(e.tc, key, value);
    return set_engine_key(e, connection, key, value, number);
}

// Exactly one of cmd= and tcp=, into the endpoint.
MaybeError set_connection(EngineConfig& e, const ConnectionText& connection) {
    if (connection.cmd.empty() == connection.tcp.empty()) {
        return make_error("engine " + e.name + ": give exactly one of cmd=\"program args\" or tcp=host:port");
    }
    if (!connection.cmd.empty()) {
        e.endpoint.command = split_words(connection.cmd);
        return std::nullopt;
    }
    const std::string& tcp = connection.tcp;
    const auto colon = tcp.rfind(':');
    if (colon == std::string::npos || colon == 0) return make_error("tcp=" + tcp + ": expected host:port");
    auto port = parse_number<int>("port", tcp.substr(colon + 1), 1, 65535);
    if (!port) return port.error();
    e.endpoint.tcp_host = tcp.substr(0, colon);
    e.endpoint.tcp_port = *port;
    return std::nullopt;
}

MaybeError check_limits(const EngineConfig& e) {
    if (e.tc.empty()) {
        return make_error("engine " + e.name + ": give a limit: depth=N, nodes=N, movetime=MS or tc=SECONDS[+INC]");
    }
    if (e.protocol == Protocol::NBoard && !e.tc.depth) {
        return make_error("engine " + e.name + ": NBoard engines need depth=N (NBoard has no other limit)");
    }
    if (e.protocol == Protocol::NBoard && e.ponder) {
        return make_error("engine " + e.name + ": ponder=true needs proto=uci (the runner ponders over UCI only)");
    }
    return std::nullopt;
}

}  // namespace

Expected<EngineConfig> parse_engine_spec(const std::vector<std::string>& each, const std::vector<std::string>& own,
                                         int number) {
    EngineConfig e;
    e.name = "engine" + std::to_string(number + 1);
    std::vector<std::string> tokens = each;
    tokens.insert(tokens.end(), own.begin(), own.end());
    ConnectionText connection;
    for (const auto& token : tokens) {
        if (auto error = apply_token(e, connection, token, number)) return *error;
    }
    if (auto error = set_connection(e, connection)) return *error;
    if (auto error = check_limits(e)) return *error;
    return e;
}

std::string engine_fingerprint(const EngineConfig& e) {
    std::ostringstream out;
    out << "name=" << e.name << " proto=" << (e.protocol == Protocol::Uci ? "uci" : "nboard");
    if (e.endpoint.tcp_host.empty()) {
        out << " cmd=";
        for (const auto& a : e.endpoint.command) out << a << ",";
    } else {
        out << " tcp=" << e.endpoint.tcp_host << ":" << e.endpoint.tcp_port;
    }
    for (const auto& [n, v] : e.options) out << " option." << n << "=" << v;
    if (e.tc.depth) out << " depth=" << *e.tc.depth;
    if (e.tc.nodes) out << " nodes=" << *e.tc.nodes;
    if (e.tc.movetime) out << " movetime=" << e.tc.movetime->count();
    if (e.tc.base) out << " tc=" << e.tc.base->count() << "+" << e.tc.increment.count();
    if (e.ponder) out << " ponder=true";  // only when on: the fingerprints of earlier logs stay valid
    return out.str();
}

}  // namespace reversi::match
