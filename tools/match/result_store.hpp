#pragma once
// Finished games on disk, appended one at a time and flushed to the disk (fsync) before the next:
//   <prefix>.ggf  one GGF game per line (move times and evals where the engine gave them; GN[i] is the
//                 game's number in the match, C[...] the reason of a forfeit)
//   <prefix>.log  the results log: a header line with the match's fingerprint, then one line per game
//                 "game I opening O black B discs D reason R faulty F detail TEXT"
// The log is the record: on --resume, a torn last line (the runner was killed while writing) is cut
// off, GGF games that have no log line (killed between the two writes) or that appear twice are
// dropped, and the match plays only the games that are not in the log. The store holds an exclusive lock
// (flock) on <prefix>.log while it is open: a second runner or coordinator given the same --out is refused.
#include <array>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "engine/core/expected.hpp"
#include "engine/core/unique_fd.hpp"
#include "tools/match/game.hpp"

namespace reversi::match {

// The log line of a game (without the newline) and back. Only the fields the statistics need are
// parsed back (index, opening, colours, discs, fault, faulty engine, detail).
[[nodiscard]] std::string result_log_line(const GameResult& r);
[[nodiscard]] Expected<GameResult> parse_result_log_line(const std::string& line);

// The current time as GGF dates are written ("2026-11-25 15:00:00 GMT").
[[nodiscard]] std::string ggf_date_now();
// The GGF record of a game (one line, no newline).
[[nodiscard]] std::string game_to_ggf_line(const GameResult& r, const std::array<std::string, 2>& names,
                                           const std::string& date);

// Whether a GGF record (a worker's, in a distributed match) plays its game from this opening: the start
// board and the opening's moves as game_to_ggf_line writes them, then the runner's own moves (a worker
// whose openings file differs from the coordinator's, under the same name and length, plays other ones).
[[nodiscard]] bool ggf_starts_at(const std::string& ggf_line, const Position& start,
                                 const std::vector<Move>& opening_moves);

class ResultStore {
public:
    ResultStore() = default;
    ~ResultStore();
    ResultStore(const ResultStore&) = delete;
    ResultStore& operator=(const ResultStore&) = delete;
    ResultStore(ResultStore&& other) noexcept;
    ResultStore& operator=(ResultStore&&) = delete;

    // Opens <prefix>.log/.ggf. Without `resume` the files must not exist unless `overwrite`. With
    // `resume` the log's fingerprint must equal `fingerprint`. An error when another process holds them.
    [[nodiscard]] static Expected<ResultStore> open(const std::string& prefix, const std::string& fingerprint,
                                                    bool resume, bool overwrite);

    // Games read back from the log (resume), in log order.
    [[nodiscard]] const std::vector<GameResult>& previous() const noexcept { return previous_; }
    // Appends the game to both files and syncs them. An error when the disk refuses.
    [[nodiscard]] Expected<bool> append(const GameResult& r, const std::array<std::string, 2>& names);
    // The same with the two lines made elsewhere (a worker of a distributed match), without newlines.
    [[nodiscard]] Expected<bool> append_lines(const std::string& ggf_line, const std::string& log_line);

private:
    UniqueFd lock_{-1};  // <prefix>.log, locked
    std::FILE* log_ = nullptr;
    std::FILE* ggf_ = nullptr;
    std::vector<GameResult> previous_;
};

}  // namespace reversi::match
