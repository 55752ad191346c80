#include "protocol/cli/logging.hpp"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace reversi::cli {

const char* default_engine_log_level(bool tcp_server) noexcept { return tcp_server ? "info" : "error"; }

bool init_logging(const std::string& program, const std::string& level, const std::string& file) {
    bool ok = true;
    std::shared_ptr<spdlog::logger> logger;
    if (!file.empty()) {
        try {
            logger = spdlog::basic_logger_mt(program, file);
        } catch (const spdlog::spdlog_ex& e) {
            ok = false;
        }
    }
    if (!logger) logger = spdlog::stderr_color_mt(program);
    const auto parsed = spdlog::level::from_str(level);
    if (parsed == spdlog::level::off && level != "off") ok = false;
    logger->set_level(parsed == spdlog::level::off && level != "off" ? spdlog::level::info : parsed);
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
    if (!ok) spdlog::warn("logging: bad level '{}' or log file '{}' could not be opened", level, file);
    return ok;
}

}  // namespace reversi::cli
