#include "protocol/session/engine_context.hpp"

#include <new>

#include <spdlog/spdlog.h>

#include "engine/board/variant.hpp"

namespace reversi::session {

namespace {

void log_selective_status(const Searcher& searcher, int selectivity) {
    if (searcher.probcut_model() == nullptr) {
        spdlog::info("selective search: the pattern weights carry no Multi-ProbCut calibration, Selectivity has no effect");
    } else {
        spdlog::info("selective search: Multi-ProbCut calibrated, Selectivity {}", selectivity);
    }
}

}  // namespace

Expected<std::unique_ptr<EngineContext>> EngineContext::create(const SessionConfig& config, LineSink sink,
                                                               JobDoneNotifier job_done) {
    const std::size_t need = session_memory_mib(config.hash_mib);
    if (config.budget && !config.budget->reserve(need)) {
        return make_error("server memory budget exhausted (" + std::to_string(config.budget->available()) +
                          " MiB left of " + std::to_string(config.budget->total()) + ", a session needs " +
                          std::to_string(need) + " = 2 x Hash " + std::to_string(config.hash_mib) + ")");
    }
    std::unique_ptr<Searcher> searcher;
    try {
        searcher = std::make_unique<Searcher>(config.hash_mib);
    } catch (const std::bad_alloc&) {
        if (config.budget) config.budget->release(need);
        return make_error("out of memory for a " + std::to_string(config.hash_mib) + " MiB hash table");
    }
    return std::unique_ptr<EngineContext>(
        new EngineContext(config, std::move(sink), std::move(job_done), std::move(searcher)));
}

EngineContext::EngineContext(const SessionConfig& config, LineSink sink, JobDoneNotifier job_done,
                             std::unique_ptr<Searcher> searcher)
    : config_(config), sink_(std::move(sink)), job_done_(std::move(job_done)), searcher_(std::move(searcher)) {
    options_.hash_mib = config.hash_mib;
    options_.search = searcher_->options();
    options_.search.selectivity = kEngineSelectivity;  // the engine plays selectively (the library's default: 100)
    options_.search.ordering = kEngineOrdering;        // and orders by its evaluation (the library's: Normal)
    searcher_->set_options(options_.search);
    game.start = start_position();
    game.current = game.start;
    spdlog::info("evaluation: {}", searcher_->evaluation_status());
    log_selective_status(*searcher_, options_.search.selectivity);
}

EngineContext::~EngineContext() {
    stop_and_wait();
    if (config_.budget) config_.budget->release(session_memory_mib(options_.hash_mib));
}

void EngineContext::stop_and_wait() {
    jobs_.stop();
    jobs_.wait();
}

void EngineContext::start_job(JobRunner::Job job, bool unbounded) {
    stop_and_wait();
    job_unbounded_ = unbounded;
    jobs_.start(std::move(job), job_done_);
}

Expected<bool> EngineContext::set_options(const uci::EngineOptions& next) {
    stop_and_wait();
    if (next.hash_mib != options_.hash_mib) {
        // Budget accounting in 2 x Hash (the search and the endgame tables).
        const std::size_t old_mib = session_memory_mib(options_.hash_mib);
        const std::size_t new_mib = session_memory_mib(next.hash_mib);
        if (config_.budget && new_mib > old_mib && !config_.budget->reserve(new_mib - old_mib)) {
            return make_error("setoption Hash: " + std::to_string(next.hash_mib) + " MiB refused: it needs " +
                              std::to_string(new_mib - old_mib) + " MiB more (2 x Hash) and the server's memory "
                              "budget has " + std::to_string(config_.budget->available()) + " MiB left");
        }
        bool resized = false;
        try {
            resized = searcher_->set_hash_size(next.hash_mib);
        } catch (const std::bad_alloc&) {
            resized = false;
        }
        if (!resized) {
            if (config_.budget && new_mib > old_mib) config_.budget->release(new_mib - old_mib);
            return make_error("setoption Hash: could not allocate " + std::to_string(next.hash_mib) +
                              " MiB; the old table is kept");
        }
        if (config_.budget && new_mib < old_mib) config_.budget->release(old_mib - new_mib);
    }
    if (next.eval_file != options_.eval_file) {
        auto loaded = searcher_->load_weights(next.eval_file);
        if (!loaded) {
            return make_error("setoption EvalFile: " + loaded.error().message + "; the old weights stay (" +
                              searcher_->evaluation_status() + ")");
        }
        spdlog::info("evaluation: {}", searcher_->evaluation_status());
        log_selective_status(*searcher_, next.search.selectivity);
    }
    // Scores stored under another evaluation would leak into the next search: start from a clear table.
    const bool evaluation_changed =
        next.search.evaluation != options_.search.evaluation || next.eval_file != options_.eval_file;
    searcher_->set_options(next.search);
    if (evaluation_changed) searcher_->clear();
    options_ = next;
    return true;
}

}  // namespace reversi::session
