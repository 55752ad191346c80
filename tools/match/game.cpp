// The game loop (see game.hpp).
#include "tools/match/game.hpp"

#include "engine/board/notation.hpp"

namespace reversi::match {

namespace {

GameResult forfeit(GameResult r, int engine, EngineFailure failure, std::array<EnginePlayer*, 2> players) {
    r.fault = failure.fault;
    r.faulty_engine = engine;
    r.detail = failure.detail;
    r.black_discs = 0;
    players[static_cast<std::size_t>(engine)]->kill();  // restarted before its next game
    return r;
}

// The game after the expected reply `ponder_text` to the move just played, for an engine to ponder
// on; nullopt when the reply is no legal move or leaves nothing for the engine to play.
std::optional<MoveRequest> expected_game(const MoveRequest& after, const std::string& ponder_text) {
    if (ponder_text.empty() || after.current.is_over()) return std::nullopt;
    const auto reply = parse_move(ponder_text);
    if (!reply || *reply == kNoMove) return std::nullopt;
    const auto next = apply_move(after.current, *reply);
    if (!next || next->is_over() || next->must_pass()) return std::nullopt;
    MoveRequest expected = after;
    expected.moves.push_back(*reply);
    expected.current = *next;
    return expected;
}

// One game from its opening to its end: the engines' moves, checked on the runner's own board, and
// their clocks. A step that ends the game early leaves the game's outcome in outcome_: a forfeit, or
// nullopt when the match was aborted (both engines are then killed).
class GameRun {
public:
    GameRun(const GameSpec& spec, std::array<EnginePlayer*, 2> players, const GameSettings& settings,
            const std::atomic<bool>& abort)
        : spec_(spec),
          players_(players),
          settings_(settings),
          abort_(abort),
          clocks_{GameClock(settings.tc[0]), GameClock(settings.tc[1])} {
        result_.index = spec.index;
        result_.opening_index = spec.opening_index;
        result_.black = spec.black;
        result_.opening_text = spec.opening.text;
        result_.start = spec.opening.start;
        result_.opening_moves = spec.opening.moves;
        request_.variant = spec.variant;
        request_.start = spec.opening.start;
        request_.moves = spec.opening.moves;
        request_.current = spec.opening.position();
    }

    std::optional<GameResult> play() {
        if (start_engines() == Step::End) return outcome_;
        while (!request_.current.is_over()) {
            if (abort_.load()) return aborted();
            if (request_.current.must_pass()) {
                result_.moves.push_back({kPass, std::nullopt, 0.0, true});
                request_.moves.push_back(kPass);
                request_.current = request_.current.pass();
                continue;
            }
            if (engine_move() == Step::End) return outcome_;
        }
        const int score = request_.current.final_score();
        result_.black_discs = request_.current.side == Color::Black ? score : -score;
        return result_;
    }

private:
    enum class Step { Go, End };

    // Every engine running (started when it is not) and told of the new game.
    Step start_engines() {
        for (int e = 0; e < 2; ++e) {
            EnginePlayer* p = players_[static_cast<std::size_t>(e)];
            if (!p->running()) {
                const auto f = p->start();
                if (abort_.load()) return abort_all();
                if (f.fault != Fault::None) return lose(e, f);
            }
            const auto f = p->new_game();
            if (abort_.load()) return abort_all();
            if (f.fault != Fault::None) return lose(e, f);
        }
        return Step::Go;
    }

    // The move of the side to move's engine: asked with the clocks as they are, timed, checked and
    // played; then the engine may ponder on the reply it expects.
    Step engine_move() {
        const int e = engine_of(request_.current.side);
        const auto ue = static_cast<std::size_t>(e);
        fill_clocks();
        // A pondering engine is stopped (a wrong guess) before its clock starts, or goes on in think().
        const auto prepared = players_[ue]->prepare_move(request_);
        if (abort_.load()) return abort_all();
        if (prepared.fault != Fault::None) return lose(e, prepared);

        const auto started = SteadyClock::now();
        const auto flag = clocks_[ue].flag_deadline(started);
        const auto deadline = flag ? *flag : started + settings_.timeouts.hang;
        const ThinkOutcome outcome = players_[ue]->think(request_, deadline, flag.has_value());
        const auto used = std::chrono::duration_cast<Millis>(SteadyClock::now() - started);
        if (abort_.load()) return abort_all();
        if (!outcome.answer) return lose(e, outcome.failure);
        if (!clocks_[ue].charge(used)) {
            return lose(e, {Fault::TimeForfeit, "the move came after " + std::to_string(used.count()) +
                                                    " ms, beyond the flag plus margin"});
        }
        EngineFailure bad_move;
        const auto next = checked_move(*outcome.answer, bad_move);
        if (!next) return lose(e, bad_move);
        result_.moves.push_back({next->move, outcome.answer->eval,
                                 std::chrono::duration<double>(SteadyClock::now() - started).count(), false});
        request_.moves.push_back(next->move);
        request_.current = next->position;
        fill_clocks();
        if (const auto expected = expected_game(request_, outcome.answer->ponder_text)) {
            if (const auto f = players_[ue]->start_pondering(*expected); f.fault != Fault::None) return lose(e, f);
        }
        return Step::Go;
    }

    struct PlayedMove {
        Move move = kNoMove;
        Position position;  // after it
    };
    // The answer's move and the position after it; else nullopt, and the fault (an unreadable or
    // illegal move) in `failure`.
    std::optional<PlayedMove> checked_move(const MoveAnswer& answer, EngineFailure& failure) const {
        const std::string& text = answer.move_text;
        const std::string said = answer.engine_error.empty() ? "" : " (the engine said: " + answer.engine_error + ")";
        const auto move = parse_move(text);
        if (!move || *move == kNoMove) {
            failure = {Fault::Garbage, "unreadable move '" + text.substr(0, 40) + "'" + said};
            return std::nullopt;
        }
        const auto next = apply_move(request_.current, *move);
        if (!next) {
            failure = {Fault::Illegal,
                       "illegal move " + move_to_string(*move) + " in " + to_board_string(request_.current) + said};
            return std::nullopt;
        }
        return PlayedMove{*move, *next};
    }

    // The clocks as they are now, in the request.
    void fill_clocks() {
        for (const Color c : {Color::Black, Color::White}) {
            const auto engine = static_cast<std::size_t>(engine_of(c));
            std::optional<Millis>& time = c == Color::Black ? request_.black_time : request_.white_time;
            Millis& inc = c == Color::Black ? request_.black_increment : request_.white_increment;
            time.reset();
            inc = Millis(0);
            if (settings_.tc[engine].has_clock()) {
                time = clocks_[engine].remaining();
                inc = settings_.tc[engine].increment;
            }
        }
    }

    [[nodiscard]] int engine_of(Color c) const noexcept { return c == Color::Black ? spec_.black : 1 - spec_.black; }

    Step lose(int engine, const EngineFailure& failure) {
        outcome_ = forfeit(result_, engine, failure, players_);
        return Step::End;
    }
    Step abort_all() {
        players_[0]->kill();
        players_[1]->kill();
        outcome_ = std::nullopt;
        return Step::End;
    }
    std::optional<GameResult> aborted() {
        abort_all();
        return std::nullopt;
    }

    const GameSpec& spec_;
    std::array<EnginePlayer*, 2> players_;
    const GameSettings& settings_;
    const std::atomic<bool>& abort_;
    std::array<GameClock, 2> clocks_;
    GameResult result_;
    MoveRequest request_;
    std::optional<GameResult> outcome_;
};

}  // namespace

std::optional<GameResult> play_game(const GameSpec& spec, std::array<EnginePlayer*, 2> players,
                                    const GameSettings& settings, const std::atomic<bool>& abort) {
    auto result = GameRun(spec, players, settings, abort).play();
    // An engine may still ponder (on the last move, or when the other lost by a fault): stopped and its
    // answer read before the next game (or quit).
    for (EnginePlayer* p : players) {
        if (p->running()) p->cancel_pondering();
    }
    return result;
}

}  // namespace reversi::match
