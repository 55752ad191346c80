// reversi-engine: the engine process. Speaks the UCI-style protocol (or NBoard, when the first command is
// `nboard 2`) on stdin/stdout, or serves it to many clients over TCP with --listen, and the web board with
// --http (docs/web.md).
#include <spdlog/spdlog.h>

#include <cstdio>
#include <optional>
#include <string>

#include "engine/book/book_file.hpp"
#include "protocol/cli/command_line.hpp"
#include "protocol/cli/logging.hpp"
#include "protocol/transport/server_flags.hpp"
#include "protocol/transport/stdio_transport.hpp"
#include "protocol/transport/tcp_server.hpp"
#include "protocol/uci/uci_frontend.hpp"

using namespace reversi;

namespace {

cli::ProgramSpec program_spec() {
    std::string commands;
    for (const char* const* l = uci::help_lines(); *l; ++l) commands += std::string(*l) + "\n";
    cli::ProgramSpec spec{
        "reversi-engine",
        "reversi-engine [options]",
        "Othello engine. Without --listen or --http it reads commands on stdin and replies on stdout; with\n"
        "--listen it serves the same protocol to every TCP client, with --http a web board and its WebSocket\n"
        "API (loopback unless another address is given).",
        {{"listen", true, "HOST:PORT: serve over TCP (e.g. 127.0.0.1:7878; port 0 = any free port)"},
         {"max-memory", true,
          "MiB for the TCP server: 68 + 2 x Hash + 4 per session, + 58 per own EvalFile (default 1024)"},
         {"max-sessions", true, "concurrent TCP sessions (default 64)"},
         {"idle-timeout", true, "seconds without input (isready aside) before a TCP session is closed (default 300)"},
         {"max-line", true, "longest accepted command line in bytes (256 to 67108864, default 65536)"},
         {"hash", true, "hash table MiB of a new session (default 16)"},
         {"log-level", true,
          "trace, debug, info, warn, error or off (default error on stdin/stdout, info with --listen)"},
         {"log-file", true, "log to this file instead of stderr"},
         {"book", true, "opening book file for every session (docs/book.md; the BookFile option)"}},
        commands};
    transport::append_server_flags(spec.options);
    spec.takes_positional = false;
    return spec;
}

// The numeric flags, each checked against its range.
struct Limits {
    long long max_memory = 0;
    long long max_sessions = 0;
    long long idle = 0;
    long long max_line = 0;
    long long hash = 0;
};

// A bad flag value, on stderr as the other programs write theirs (the caller exits with status 2).
void flag_error(const std::string& message) { std::fprintf(stderr, "reversi-engine: %s\n", message.c_str()); }

std::optional<Limits> read_limits(const cli::ParsedArgs& args) {
    auto max_memory = args.get_int("max-memory", 1024, 1, 1 << 24);
    auto max_sessions = args.get_int("max-sessions", 64, 1, 100000);
    auto idle = args.get_int("idle-timeout", 300, 1, 86400 * 365);
    auto max_line = args.get_int("max-line", 65536, 256, 1 << 26);
    auto hash = args.get_int("hash", 16, 1, static_cast<long long>(session::kMaxHashMib));
    for (const auto* v : {&max_memory, &max_sessions, &idle, &max_line, &hash}) {
        if (!*v) {
            flag_error(v->error().message);
            return std::nullopt;
        }
    }
    return Limits{*max_memory, *max_sessions, *idle, *max_line, *hash};
}

// A new session's settings: the table size, the server flags that set options, and the book.
std::optional<session::SessionConfig> session_config(const cli::ParsedArgs& args, const Limits& limits) {
    session::SessionConfig config;
    config.hash_mib = static_cast<std::size_t>(limits.hash);
    transport::apply_session_flags(args, config);
    if (!args.has("book")) return config;
    auto book = book::load_book_file(args.get("book", ""));
    if (!book) {
        flag_error("--book: " + book.error().message);
        return std::nullopt;
    }
    spdlog::info("book: {} ({} positions)", args.get("book", ""), book->size());
    config.book = std::make_shared<const book::Book>(std::move(*book));
    config.book_file = args.get("book", "");
    return config;
}

// --listen and --http: "HOST:PORT" (loopback when no host is given) into the pair they set.
bool read_address(const cli::ParsedArgs& args, const char* flag, std::string& host, std::uint16_t& port) {
    auto parsed = transport::parse_listen_address(args.get(flag, ""));
    if (!parsed) {
        flag_error(std::string("--") + flag + ": " + parsed.error().message);
        return false;
    }
    host = parsed->first;
    port = parsed->second;
    return true;
}

int serve_tcp(const cli::ParsedArgs& args, const Limits& limits, const session::SessionConfig& config) {
    transport::TcpOptions options;
    options.serve_lines = args.has("listen");
    options.serve_http = args.has("http");
    if (options.serve_lines && !read_address(args, "listen", options.host, options.port)) return 2;
    if (options.serve_http && !read_address(args, "http", options.http_host, options.http_port)) return 2;
    options.max_line = static_cast<std::size_t>(limits.max_line);
    options.idle_timeout = std::chrono::seconds(limits.idle);
    options.max_sessions = static_cast<std::size_t>(limits.max_sessions);
    options.max_memory_mib = static_cast<std::size_t>(limits.max_memory);
    options.session = config;
    if (auto applied = transport::apply_server_flags(args, options); !applied) {
        flag_error(applied.error().message);
        return 2;
    }
    return transport::run_tcp_server(options);
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec = program_spec();
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    const auto& args = parsed.args;
    const bool tcp = args.has("listen") || args.has("http");
    if (!tcp) transport::block_termination_signals();  // before any thread: signals arrive on a signalfd
    cli::init_logging("engine", args.get("log-level", cli::default_engine_log_level(tcp)), args.get("log-file", ""));

    const auto limits = read_limits(args);
    if (!limits) return 2;
    const auto config = session_config(args, *limits);
    if (!config) return 2;
    if (tcp) return serve_tcp(args, *limits, *config);
    transport::StdioOptions options;
    options.max_line = static_cast<std::size_t>(limits->max_line);
    options.session = *config;
    return transport::run_stdio(options);
}
