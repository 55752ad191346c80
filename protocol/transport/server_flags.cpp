#include "protocol/transport/server_flags.hpp"

#include <algorithm>
#include <string>

#include "engine/board/variant.hpp"
#include "protocol/session/file_access.hpp"
#include "protocol/text/tokens.hpp"

namespace reversi::transport {

void append_server_flags(std::vector<cli::OptionSpec>& options) {
    options.push_back({"http", true,
                       "HOST:PORT: serve the web board at / and its WebSocket API at /ws (docs/web.md; e.g. "
                       "127.0.0.1:8080; loopback unless another address is given; with or without --listen)"});
    options.push_back(
        {"openings", true, "FILE: openings the web board may start from (one per line, e.g. an XOT list)"});
    options.push_back({"data-dir", true, "DIR: the only files TCP clients may name (EvalFile); default: none"});
    options.push_back({"max-threads", true, "search threads of all TCP sessions together (default: the cores)"});
    options.push_back({"max-search-time", true,
                       "seconds after which a TCP session's search is stopped (default "
                       "3600, 0 = no limit)"});
    options.push_back({"reclaim-idle", true,
                       "seconds idle after which a TCP session makes room for a new client "
                       "when the server is full (default 30)"});
    options.push_back({"write-timeout", true,
                       "seconds a TCP client may leave the server's output unread before it is "
                       "disconnected (default 30)"});
    options.push_back({"allow-host", true,
                       "comma-separated host names browser pages may reach --http under, besides IP "
                       "addresses and localhost (a page under another name is refused: DNS rebinding)"});
    options.push_back({"test-hooks", false,
                       "tests only: enables the commands test-throw, test-throw-job, test-slow-job and test-no-threads "
                       "(docs/security.md)"});
}

void apply_session_flags(const cli::ParsedArgs& args, session::SessionConfig& config) {
    config.test_hooks = args.has("test-hooks");
}

Expected<bool> apply_server_flags(const cli::ParsedArgs& args, TcpOptions& options) {
    auto threads = args.get_int("max-threads", 0, 1, 4096);
    if (!threads) return threads.error();
    auto search_time = args.get_int("max-search-time", options.max_search_time.count(), 0, 86400 * 365);
    if (!search_time) return search_time.error();
    auto reclaim = args.get_int("reclaim-idle", options.reclaim_idle.count(), 1, 86400 * 365);
    if (!reclaim) return reclaim.error();
    auto write_timeout = args.get_int("write-timeout", options.write_timeout.count(), 1, 86400);
    if (!write_timeout) return write_timeout.error();
    options.write_timeout = std::chrono::seconds(*write_timeout);
    const std::string hosts = args.get("allow-host", "");
    for (std::size_t start = 0; start < hosts.size();) {
        const std::size_t end = std::min(hosts.find(',', start), hosts.size());
        std::string name = text::lowercase(std::string_view(hosts).substr(start, end - start));
        if (!name.empty()) options.allowed_hosts.push_back(std::move(name));
        start = end + 1;
    }
    options.max_threads = static_cast<int>(*threads);
    options.max_search_time = std::chrono::seconds(*search_time);
    options.reclaim_idle = std::chrono::seconds(*reclaim);
    if (args.has("openings")) {
        auto openings = data::read_openings(args.get("openings", ""), Variant::Standard);
        if (!openings) return make_error("--openings: " + openings.error().message);
        if (openings->empty()) return make_error("--openings: " + args.get("openings", "") + " holds no opening");
        options.openings = std::make_shared<const std::vector<data::Opening>>(std::move(*openings));
    }
    if (args.has("data-dir")) {
        auto dir = session::canonical_data_dir(args.get("data-dir", ""));
        if (!dir) return dir.error();
        options.data_dir = *dir;
    }
    return true;
}

}  // namespace reversi::transport
