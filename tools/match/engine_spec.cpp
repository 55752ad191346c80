// --engine token parsing (see engine_spec.hpp).
#include "tools/match/engine_spec.hpp"

#include <charconv>
#include <sstream>

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

}  // namespace

Expected<EngineConfig> parse_engine_spec(const std::vector<std::string>& each, const std::vector<std::string>& own,
                                         int number) {
    EngineConfig e;
    e.name = "engine" + std::to_string(number + 1);
    std::vector<std::string> tokens = each;
    tokens.insert(tokens.end(), own.begin(), own.end());
    std::string cmd;
    std::string tcp;
    for (const auto& token : tokens) {
        const auto eq = token.find('=');
        if (eq == std::string::npos || eq == 0) {
            return make_error("engine " + std::to_string(number + 1) + ": expected key=value, got '" + token + "'");
        }
        const std::string key = token.substr(0, eq);
        const std::string value = token.substr(eq + 1);
        if (key == "name") {
            if (value.empty()) return make_error("empty engine name");
            e.name = value;
        } else if (key == "cmd") {
            cmd = value;
        } else if (key == "tcp") {
            tcp = value;
        } else if (key == "proto") {
            if (value == "uci")
                e.protocol = Protocol::Uci;
            else if (value == "nboard")
                e.protocol = Protocol::NBoard;
            else
                return make_error("proto=" + value + ": expected uci or nboard");
        } else if (key.rfind("option.", 0) == 0 && key.size() > 7) {
            const std::string name = key.substr(7);
            bool replaced = false;
            for (auto& [n, v] : e.options) {
                if (n == name) {
                    v = value;
                    replaced = true;
                }
            }
            if (!replaced) e.options.emplace_back(name, value);
            if (name == "Threads") {
                auto t = parse_number<int>(key, value, 1, 1024);
                if (!t) return t.error();
                e.threads = *t;
            }
        } else if (key == "depth") {
            auto v = parse_number<int>(key, value, 0, 60);
            if (!v) return v.error();
            e.tc.depth = *v;
        } else if (key == "nodes") {
            auto v = parse_number<std::uint64_t>(key, value, 1, std::uint64_t{1} << 62);
            if (!v) return v.error();
            e.tc.nodes = *v;
        } else if (key == "movetime") {
            auto v = parse_number<long long>(key, value, 1, 86400000);
            if (!v) return v.error();
            e.tc.movetime = Millis(*v);
        } else if (key == "tc") {
            auto tc = parse_clock(value, e.tc);
            if (!tc) return tc.error();
            e.tc = *tc;
        } else if (key == "timemargin") {
            auto v = parse_number<long long>(key, value, 0, 3600000);
            if (!v) return v.error();
            e.tc.margin = Millis(*v);
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
    }
    if (cmd.empty() == tcp.empty()) {
        return make_error("engine " + e.name + ": give exactly one of cmd=\"program args\" or tcp=host:port");
    }
    if (!cmd.empty()) {
        e.endpoint.command = split_words(cmd);
    } else {
        const auto colon = tcp.rfind(':');
        if (colon == std::string::npos || colon == 0) return make_error("tcp=" + tcp + ": expected host:port");
        auto port = parse_number<int>("port", tcp.substr(colon + 1), 1, 65535);
        if (!port) return port.error();
        e.endpoint.tcp_host = tcp.substr(0, colon);
        e.endpoint.tcp_port = *port;
    }
    if (e.tc.empty()) {
        return make_error("engine " + e.name + ": give a limit: depth=N, nodes=N, movetime=MS or tc=SECONDS[+INC]");
    }
    if (e.protocol == Protocol::NBoard && !e.tc.depth) {
        return make_error("engine " + e.name + ": NBoard engines need depth=N (NBoard has no other limit)");
    }
    if (e.protocol == Protocol::NBoard && e.ponder) {
        return make_error("engine " + e.name + ": ponder=true needs proto=uci (the runner ponders over UCI only)");
    }
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
