#pragma once
// Split points anywhere in the tree (YBWC with idle threads): while a thread waits at a join with nothing
// to search, a searching thread offers the rest of a node's moves once the node's first move is searched
// (the young brothers wait for the eldest), and the idle thread takes moves from the offer.
//
//   owner (SearchWorker::split)                 idle thread (SearchWorker::wait_helping, help)
//   SplitPoint sp(...); board.publish(sp);      SplitBoard::Idle idle(board);   // counted as idle
//   take moves from sp, search, merge           SplitPoint* sp = board.enter(max_empties);
//   board.withdraw(sp)                          take moves from sp, search, merge; sp->leave(...)
//   wait until sp.helpers() == 0 (helping on split points with fewer empties meanwhile)
//
// Nothing is offered while no thread is idle (a relaxed load per offered move), so a one-thread solve
// and a solve whose threads are all busy search exactly as before. A SplitPoint lives on its owner's
// stack; the owner withdraws it before its join and returns only when every helper has left, so a helper
// never sees it dead. A thread waiting at a join helps only split points with fewer empties than the
// one it waits at: each nested help is strictly deeper, so no two threads can wait for each other.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "engine/board/bitboard.hpp"
#include "engine/endgame/move_ordering.hpp"

namespace reversi::endgame {

// What a search worker counted (SearchWorker::counts()): its nodes, charged to the solve as it goes, its
// probcut cuts, and the children its fast ordering scored without entering them (not nodes).
struct WorkerCounts {
    std::uint64_t nodes = 0;
    std::uint64_t probcuts = 0;
    std::uint64_t scored_children = 0;

    WorkerCounts& operator+=(const WorkerCounts& other) noexcept {
        nodes += other.nodes;
        probcuts += other.probcuts;
        scored_children += other.scored_children;
        return *this;
    }
};

class SplitPoint {
public:
    // The moves list.moves[from .. list.size) of the node (P to move, window (alpha, beta)), already in
    // search order; `best` and `best_move` are the node's so far (its first move).
    SplitPoint(Bitboard P, Bitboard O, int empties, int alpha, int beta, bool pv, int selectivity_level,
               int probcut_empties, const EndgameMoveList& list, int from, int best, Move best_move) noexcept
        : P_(P),
          O_(O),
          empties_(empties),
          beta_(beta),
          pv_(pv),
          selectivity_level_(selectivity_level),
          probcut_empties_(probcut_empties),
          list_(list),
          next_(from),
          alpha_(alpha > best ? alpha : best),
          best_(best),
          best_move_(best_move) {}
    SplitPoint(const SplitPoint&) = delete;
    SplitPoint& operator=(const SplitPoint&) = delete;

    // The next move to search (its list index), or -1 when none is left or the node is cut.
    [[nodiscard]] int take() noexcept;
    // The window's lower edge now: the node's alpha raised by the moves searched so far.
    [[nodiscard]] int alpha() noexcept;
    // A searched move's fail-soft score: raises the best score (and alpha); at beta the node is cut and
    // every search below it is told to stop.
    void merge(int index, int score) noexcept;
    // The owner's search was stopped: the helpers stop too.
    void abandon() noexcept { stop_.store(true, std::memory_order_relaxed); }

    // Helpers: entered by SplitBoard::enter; leave() when done, with what their workers counted.
    void leave(const WorkerCounts& counts) noexcept;
    [[nodiscard]] int helpers() noexcept;

    // After the join (no helper left): the outcome.
    [[nodiscard]] int best() const noexcept { return best_; }
    [[nodiscard]] Move best_move() const noexcept { return best_move_; }
    [[nodiscard]] const WorkerCounts& helper_counts() const noexcept { return helper_counts_; }

    [[nodiscard]] Bitboard player() const noexcept { return P_; }
    [[nodiscard]] Bitboard opponent() const noexcept { return O_; }
    [[nodiscard]] int empties() const noexcept { return empties_; }
    [[nodiscard]] int beta() const noexcept { return beta_; }
    [[nodiscard]] bool pv() const noexcept { return pv_; }
    [[nodiscard]] int selectivity_level() const noexcept { return selectivity_level_; }
    [[nodiscard]] int probcut_empties() const noexcept { return probcut_empties_; }
    [[nodiscard]] const EndgameMove& move(int index) const noexcept {
        return list_.moves[static_cast<std::size_t>(index)];
    }
    // The helpers' searches watch this flag (SearchWorker's cutoff).
    [[nodiscard]] const std::atomic<bool>* stop_flag() const noexcept { return &stop_; }

private:
    friend class SplitBoard;
    // With the board's mutex held: the split point has a move left and takes one more helper.
    bool admit() noexcept;
    // Moves are left to hand out and the node is not cut (with mutex_ held).
    [[nodiscard]] bool has_moves() const noexcept {
        return !stop_.load(std::memory_order_relaxed) && next_ < list_.size;
    }

    const Bitboard P_;
    const Bitboard O_;
    const int empties_;
    const int beta_;
    const bool pv_;
    const int selectivity_level_;
    const int probcut_empties_;
    const EndgameMoveList& list_;
    std::mutex mutex_;  // guards what follows
    int next_;
    int alpha_;
    int best_;
    Move best_move_;
    int helpers_ = 0;
    WorkerCounts helper_counts_;
    std::atomic<bool> stop_{false};
};

// The open split points of one solve, and how many of its threads wait for work.
class SplitBoard {
public:
    // True when some thread is idle (a hint: a relaxed load; enter() decides).
    [[nodiscard]] bool wanted() const noexcept { return idle_.load(std::memory_order_relaxed) > 0; }
    void publish(SplitPoint& sp);
    // Split points published so far.
    [[nodiscard]] std::uint64_t offers() const noexcept { return offers_.load(std::memory_order_relaxed); }
    // No helper enters `sp` after this.
    void withdraw(SplitPoint& sp);
    // An open split point with a move left and fewer than `max_empties` empties, with this thread counted
    // among its helpers (it must call leave()); nullptr when there is none.
    [[nodiscard]] SplitPoint* enter(int max_empties);

    // Marks the calling thread idle for its lifetime (offers are made while some thread is).
    class Idle {
    public:
        explicit Idle(SplitBoard& board) noexcept : board_(board) {
            board_.idle_.fetch_add(1, std::memory_order_relaxed);
        }
        ~Idle() { board_.idle_.fetch_sub(1, std::memory_order_relaxed); }
        Idle(const Idle&) = delete;
        Idle& operator=(const Idle&) = delete;

    private:
        SplitBoard& board_;
    };

private:
    std::mutex mutex_;
    std::vector<SplitPoint*> open_;   // guarded by mutex_
    std::atomic<int> open_count_{0};  // open_.size(), read without the mutex by idle threads' polls
    std::atomic<int> idle_{0};
    std::atomic<std::uint64_t> offers_{0};
};

}  // namespace reversi::endgame
