#include "protocol/session/engine_context.hpp"

#include <algorithm>
#include <new>
#include <system_error>

#include <spdlog/spdlog.h>

#include "engine/board/variant.hpp"

namespace reversi::session {

namespace {

void log_selective_status(const Searcher& searcher, int selectivity) {
    if (searcher.probcut_model() == nullptr) {
        spdlog::info(
            "selective search: the pattern weights carry no Multi-ProbCut calibration, Selectivity has no effect");
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
                          std::to_string(need) + " = 2 x Hash " + std::to_string(config.hash_mib) + " + " +
                          std::to_string(kSessionOverheadMiB) + ")");
    }
    std::unique_ptr<Searcher> searcher;
    try {
        searcher = std::make_unique<Searcher>(std::min(config.hash_mib, kStartHashMiB));
    } catch (const std::bad_alloc&) {
        if (config.budget) config.budget->release(need);
        return make_error("out of memory for a " + std::to_string(config.hash_mib) + " MiB hash table");
    }
    try {
        return std::unique_ptr<EngineContext>(
            new EngineContext(config, std::move(sink), std::move(job_done), std::move(searcher)));
    } catch (...) {  // nothing of `need` is held yet (the constructor's resize catches its own failure)
        if (config.budget) config.budget->release(need);
        throw;
    }
}

EngineContext::EngineContext(const SessionConfig& config, LineSink sink, JobDoneNotifier job_done,
                             std::unique_ptr<Searcher> searcher)
    : config_(config), sink_(std::move(sink)), job_done_(std::move(job_done)), searcher_(std::move(searcher)) {
    options_.hash_mib = std::min(config.hash_mib, kStartHashMiB);  // create() made the table this size
    options_.search = searcher_->options();
    options_.search.selectivity =
        kEngineSelectivityPercent;               // the engine plays selectively (the library's default: 100)
    options_.search.ordering = kEngineOrdering;  // and orders by its evaluation (the library's: Normal)
    searcher_->set_options(options_.search);
    if (config.book) {
        book_.use(config.book, config.book_file);
        options_.book_file = config.book_file;
    }
    game.start = start_position();
    game.current = game.start;
    spdlog::info("evaluation: {}", searcher_->evaluation_status());
    log_selective_status(*searcher_, options_.search.selectivity);
    if (config.hash_mib > options_.hash_mib) {
        // The rest of the session's memory was reserved by create(): the resize takes it over.
        const std::size_t growth = session_memory_mib(config.hash_mib) - session_memory_mib(options_.hash_mib);
        try {
            start_hash_resize(config.hash_mib, MemoryReservation::adopt(config.budget, growth), false);
        } catch (const std::exception& e) {  // no thread left: the growth went back with its reservation
            spdlog::error("session: the tables stay at {} MiB: {}", options_.hash_mib, e.what());
            send_error("Hash stays " + std::to_string(options_.hash_mib) + " MiB: " + e.what());
        }
    }
}

EngineContext::~EngineContext() {
    end_job();
    if (config_.budget) config_.budget->release(session_memory_mib(options_.hash_mib));
}

void EngineContext::end_job() noexcept {
    jobs_.stop();
    try {
        jobs_.wait();
    } catch (const std::exception& e) {  // std::thread::join: not expected for a joinable thread
        spdlog::error("session: the job could not be joined: {}", e.what());
    }
}

void EngineContext::stop_and_wait() {
    jobs_.stop();
    jobs_.wait();
    collect_finished_job();
}

void EngineContext::start_job(JobRunner::Job job, bool unbounded, std::function<void()> on_stop) {
    launch(std::move(job), unbounded, options_.search.threads, std::move(on_stop));
}

void EngineContext::start_job_then(JobRunner::Job job, std::function<void()> collect) {
    launch(std::move(job), false, options_.search.threads);
    collect_ = std::move(collect);  // after launch: its stop_and_wait collects the job before
}

void EngineContext::start_one_thread_job(JobRunner::Job job) { launch(std::move(job), false, 1); }

void EngineContext::launch(JobRunner::Job job, bool unbounded, int threads, std::function<void()> on_stop) {
    stop_and_wait();
    if (failing_job_starts_ > 0) {
        --failing_job_starts_;
        throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                                "test-no-threads: no thread for the job");
    }
    job_unbounded_ = unbounded;
    ++job_serial_;
    job_started_ = std::chrono::steady_clock::now();
    auto guarded = [this, job = std::move(job), grant = grant_threads(threads)](const std::atomic<bool>& stop) mutable {
        struct GiveBack {  // the threads go back before the next job can start, whatever happens
            EngineContext& context;
            std::shared_ptr<ThreadGrant>& grant;
            ~GiveBack() {
                if (grant && grant->count() > 1) {
                    try {
                        context.park_no_helpers();
                    } catch (const std::exception& e) {  // std::thread::join: not expected
                        spdlog::error("session: the search's helper threads could not be joined: {}", e.what());
                    }
                }
                grant.reset();
            }
        } give_back{*this, grant};
        try {
            job(stop);
        } catch (const std::exception& e) {
            spdlog::error("job failed: {}", e.what());
            send_error(std::string("internal error in the running command: ") + e.what() + "; the session goes on");
        } catch (...) {
            spdlog::error("job failed: unknown exception");
            send_error("internal error in the running command; the session goes on");
        }
    };
    jobs_.start(std::move(guarded), job_done_, std::move(on_stop));
}

int EngineContext::max_threads() const noexcept {
    return config_.threads ? std::min(config_.threads->total(), kMaxThreads) : kMaxThreads;
}

void EngineContext::use_search_options(SearchOptions options) {
    // A server's helper threads come from each job's grant (launch), never from Threads here.
    if (config_.threads) options.threads = searcher_->options().threads;
    searcher_->set_options(options);
}

void EngineContext::park_no_helpers() {
    searcher_->set_threads(1);  // the pool's workers finish and are joined; no other option is written
}

std::shared_ptr<ThreadGrant> EngineContext::grant_threads(int wanted) {
    if (!config_.threads) return nullptr;
    auto grant = std::make_shared<ThreadGrant>(*config_.threads, wanted);
    if (searcher_->options().threads != grant->count()) searcher_->set_threads(grant->count());
    if (grant->count() < wanted) {
        spdlog::debug("search threads: {} of the {} asked for (the server's {} are in use)", grant->count(), wanted,
                      config_.threads->total());
    }
    return grant;
}

Expected<MemoryReservation> EngineContext::reserve_hash(std::size_t hash_mib) {
    // Budget accounting in 2 x Hash (the search and the endgame tables): a larger table reserves the
    // difference now; the table itself is resized by a job (start_hash_resize).
    const std::size_t old_mib = session_memory_mib(options_.hash_mib);
    const std::size_t new_mib = session_memory_mib(hash_mib);
    if (new_mib <= old_mib) return MemoryReservation{};
    auto growth = MemoryReservation::take(config_.budget, new_mib - old_mib);
    if (!growth) {
        return make_error("setoption Hash: " + std::to_string(hash_mib) + " MiB refused: it needs " +
                          std::to_string(new_mib - old_mib) +
                          " MiB more (2 x Hash) and the server's memory "
                          "budget has " +
                          std::to_string(config_.budget->available()) + " MiB left");
    }
    return std::move(*growth);
}

// Allocating (and clearing) a table of hundreds of MiB takes a second or more: a job, so that a server's
// network thread never waits for it (the commands after it, isready too, wait, as for ucinewgame).
void EngineContext::start_hash_resize(std::size_t hash_mib, MemoryReservation growth, bool clear) {
    start_exclusive_job([this, hash_mib, clear](const std::atomic<bool>&) {
        bool resized = false;
        try {
            resized = searcher_->set_hash_size(hash_mib);
        } catch (const std::bad_alloc&) {
            resized = false;
        }
        if (clear) searcher_->clear();  // the evaluation changed with the size (whether or not it was resized)
        resized_hash_.emplace(ResizedHash{hash_mib, resized});
    });
    hash_growth_ = std::move(growth);  // after the launch, which collects the job before it
}

void EngineContext::apply_resized_hash() {
    const ResizedHash done = *resized_hash_;
    resized_hash_.reset();
    MemoryReservation growth = std::move(hash_growth_);  // given back unless the larger table is kept
    if (!done.resized) {
        send_error("setoption Hash: could not allocate " + std::to_string(done.mib) + " MiB; the old table is kept");
        return;
    }
    const std::size_t old_mib = session_memory_mib(options_.hash_mib);
    const std::size_t new_mib = session_memory_mib(done.mib);
    growth.keep();  // from now on part of the session's 2 x Hash + overhead (released by the destructor)
    if (config_.budget && new_mib < old_mib) config_.budget->release(old_mib - new_mib);
    options_.hash_mib = done.mib;
}

Expected<bool> EngineContext::set_options(const EngineOptions& next) {
    stop_and_wait();
    if (next.search.threads > max_threads()) {
        return make_error("setoption Threads: " + std::to_string(next.search.threads) +
                          " is more than the server's limit of " + std::to_string(max_threads()) + " search threads");
    }
    std::optional<MemoryReservation> hash_growth;
    if (next.hash_mib != options_.hash_mib) {
        auto growth = reserve_hash(next.hash_mib);
        if (!growth) return growth.error();
        hash_growth = std::move(*growth);
    }
    // Scores stored under another evaluation would leak into the next search: the tables are cleared (by
    // an exclusive job below: clearing 2 x Hash takes a second at a large Hash, as for ucinewgame).
    const bool evaluation_changed = next.search.evaluation != options_.search.evaluation;
    use_search_options(next.search);
    const std::string file = next.eval_file;
    const std::string current_file = options_.eval_file;
    const std::string book_file = options_.book_file;
    const std::size_t current_hash = options_.hash_mib;
    options_ = next;
    options_.hash_mib = current_hash;  // changes when the table has been resized
    if (hash_growth) {
        start_hash_resize(next.hash_mib, std::move(*hash_growth), evaluation_changed);
    } else if (evaluation_changed) {
        start_exclusive_job([this](const std::atomic<bool>&) { searcher_->clear(); });
    }
    if (next.book_file != book_file) {
        options_.book_file = book_file;
        auto loaded = book_.load(config_.files, next.book_file);
        if (!loaded) return loaded;
        options_.book_file = next.book_file;
        if (book_.get()) spdlog::info("book: {} ({} positions)", next.book_file, book_.get()->size());
    }
    options_.eval_file = current_file;                          // changes when the new file has been read
    if (file != current_file) return start_weights_load(file);  // after the resize (launch waits for it)
    return true;
}

Expected<bool> EngineContext::start_weights_load(const std::string& file) {
    if (!may_name_files(config_.files)) {
        return make_error(
            "setoption EvalFile: files cannot be named over the network (the server was started "
            "without --data-dir); the old weights stay");
    }
    auto memory = MemoryReservation::take(config_.budget, kEvalFileMiB);
    if (!memory) {
        return make_error("setoption EvalFile: server memory budget exhausted (" +
                          std::to_string(config_.budget->available()) + " MiB left of " +
                          std::to_string(config_.budget->total()) + ", a session's own weights need " +
                          std::to_string(kEvalFileMiB) + "); the old weights stay");
    }
    const FileAccess access = config_.files;
    launch(
        [this, file, access](const std::atomic<bool>&) {
            auto load = [&]() -> Expected<eval::PatternEvaluator> {
                auto path = resolve_for_reading(access, file);
                if (!path) return path.error();
                auto set = eval::load_weights_file(*path, file);
                if (!set) return set.error();
                if (set->trained_mask != eval::kAllPhasesMask) {
                    return make_error("weights " + file +
                                      ": not every phase is trained (an interrupted training run?)");
                }
                return eval::PatternEvaluator(std::make_shared<const eval::WeightSet>(std::move(*set)));
            };
            loaded_.emplace(LoadedWeights{file, load()});
            // Scores stored under the old weights would leak into the next search: the tables are cleared
            // here, off the reader thread (nothing searches before the weights are applied: exclusive job).
            if (loaded_->result) searcher_->clear();
        },
        false, 1);
    // After launch(), which collects a job before it (and would apply an earlier load with this reservation).
    loading_memory_ = std::move(*memory);
    exclusive_ = true;
    return true;
}

void EngineContext::start_exclusive_job(JobRunner::Job job) {
    launch(std::move(job), false, 1);
    exclusive_ = true;
}

void EngineContext::when_endgame_ready(std::function<void()> then) {
    if (searcher_->endgame_ready()) return then();
    try {
        start_exclusive_job([this](const std::atomic<bool>&) { searcher_->prepare_endgame(); });
    } catch (const std::exception& e) {  // no thread for the job: answered all the same (a GUI waits for it)
        spdlog::error("session: the exact solver's table could not be prepared: {}", e.what());
        send_error(std::string("no thread to prepare the exact solver's table (") + e.what() +
                   "); the first timed search will");
        return then();
    }
    collect_ = std::move(then);  // after the launch, which collects the job before it
}

void EngineContext::collect_finished_job() {
    if (busy()) return;
    jobs_.wait();
    exclusive_ = false;
    if (resized_hash_) apply_resized_hash();
    if (loaded_) apply_loaded_weights();
    if (collect_) {
        const auto collect = std::move(collect_);
        collect_ = nullptr;
        collect();
    }
}

void EngineContext::apply_loaded_weights() {
    LoadedWeights done = std::move(*loaded_);
    loaded_.reset();
    MemoryReservation memory = std::move(loading_memory_);  // released here unless the weights are used
    if (!done.result) {
        spdlog::debug("setoption EvalFile refused: {}", done.result.error().message);
        send_error("setoption EvalFile: " + done.result.error().message + "; the old weights stay (" +
                   searcher_->evaluation_status() + ")");
        return;
    }
    searcher_->use_pattern_weights(std::move(*done.result), done.file);
    eval_file_memory_ = std::move(memory);  // the old file's weights are gone: their reservation too
    options_.eval_file = done.file;
    spdlog::info("evaluation: {}", searcher_->evaluation_status());
    log_selective_status(*searcher_, options_.search.selectivity);
}

}  // namespace reversi::session
