#pragma once
// The engine's search facade for Othello positions: one object per session (it owns the session's
// transposition table and worker pool). search() runs on the caller's thread until a limit is reached or `stop` becomes
// true, reporting each completed iteration through the callbacks.
#include <cstddef>
#include <memory>
#include <optional>

#include "engine/board/position.hpp"
#include "engine/eval/probcut_model.hpp"
#include "engine/search/search_types.hpp"

namespace reversi {

class WorkerPool;
namespace eval {
class PatternEvaluator;
}

class Searcher {
public:
    explicit Searcher(std::size_t hash_mib = 16);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Resizes the transposition table; false (and the old table kept) when the memory is not available.
    [[nodiscard]] bool set_hash_size(std::size_t mib);
    [[nodiscard]] std::size_t hash_size() const noexcept;
    // Sets the options for the next searches (not during a search). Threads resizes the Searcher's worker
    // pool to Threads - 1 threads; searches start no thread of their own.
    void set_options(const SearchOptions& options);
    // Only Threads (the same pool resize), writing no other option: a server session calls it on its job's
    // thread when the job ends, while its reader thread may read the other options (`d`).
    void set_threads(int threads);
    [[nodiscard]] const SearchOptions& options() const noexcept;
    // Clears the transposition table and history (ucinewgame).
    void clear();
    // Allocates the exact solver's table now (no effect when it exists). Otherwise the first exact solve
    // allocates it, inside that search's time limits: a timed search calls this before its clock starts.
    void prepare_endgame();
    // Whether the exact solver's table exists (prepare_endgame would allocate nothing).
    [[nodiscard]] bool endgame_ready() const noexcept;

    // Loads pattern weights from a file for EvalKind::Pattern; on error the current weights stay and the
    // error says why. The embedded default weights are loaded at construction; when they are unusable,
    // EvalKind::Pattern falls back to the heuristic evaluation (see evaluation_status()).
    [[nodiscard]] Expected<std::string> load_weights(const std::string& path);
    // Installs pattern weights loaded elsewhere (a session reads the file on its job thread); `source`
    // names them in evaluation_status().
    void use_pattern_weights(eval::PatternEvaluator pattern, const std::string& source);
    // Which evaluation a search of `pos` uses with the current options ("pattern" or "heuristic").
    [[nodiscard]] std::string_view evaluation_name(const Position& pos) const noexcept;
    // One line on the pattern weights: where they came from, or why the fallback is in use.
    [[nodiscard]] const std::string& evaluation_status() const noexcept;

    // Multi-ProbCut calibration: by default the one stored with the pattern weights (none: no selective
    // search). set_probcut_model(model) replaces it (tests, experiments; an empty model disables the
    // selective search); std::nullopt returns to the weights' own.
    void set_probcut_model(std::optional<eval::ProbCutModel> model);
    // The calibration in use (nullptr when there is none).
    [[nodiscard]] const eval::ProbCutModel* probcut_model() const noexcept;
    // The pool that runs the helpers and the endgame solver's splits (its size and the threads it created).
    [[nodiscard]] const WorkerPool& worker_pool() const noexcept;

    [[nodiscard]] SearchResult search(const Position& pos, const SearchLimits& limits, const SearchCallbacks& callbacks,
                                      const std::atomic<bool>& stop);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace reversi
