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

std::optional<GameResult> play_moves(const GameSpec& spec, std::array<EnginePlayer*, 2> players,
                                     const GameSettings& settings, const std::atomic<bool>& abort) {
    GameResult result;
    result.index = spec.index;
    result.opening_index = spec.opening_index;
    result.black = spec.black;
    result.opening_text = spec.opening.text;
    result.start = spec.opening.start;
    result.opening_moves = spec.opening.moves;

    auto aborted = [&] {
        players[0]->kill();
        players[1]->kill();
        return std::nullopt;
    };
    for (int e = 0; e < 2; ++e) {
        EnginePlayer* p = players[static_cast<std::size_t>(e)];
        if (!p->running()) {
            const auto f = p->start();
            if (abort.load()) return aborted();
            if (f.fault != Fault::None) return forfeit(result, e, f, players);
        }
        const auto f = p->new_game();
        if (abort.load()) return aborted();
        if (f.fault != Fault::None) return forfeit(result, e, f, players);
    }

    MoveRequest request;
    request.variant = spec.variant;
    request.start = spec.opening.start;
    request.moves = spec.opening.moves;
    request.current = spec.opening.position();
    std::array<GameClock, 2> clocks{GameClock(settings.tc[0]), GameClock(settings.tc[1])};
    auto engine_of = [&](Color c) { return c == Color::Black ? spec.black : 1 - spec.black; };
    auto fill_clocks = [&](MoveRequest& r) {  // the clocks as they are now
        for (const Color c : {Color::Black, Color::White}) {
            const auto engine = static_cast<std::size_t>(engine_of(c));
            std::optional<Millis>& time = c == Color::Black ? r.black_time : r.white_time;
            Millis& inc = c == Color::Black ? r.black_increment : r.white_increment;
            time.reset();
            inc = Millis(0);
            if (settings.tc[engine].has_clock()) {
                time = clocks[engine].remaining();
                inc = settings.tc[engine].increment;
            }
        }
    };

    while (!request.current.is_over()) {
        if (abort.load()) return aborted();
        const Color side = request.current.side;
        if (request.current.must_pass()) {
            result.moves.push_back({kPass, std::nullopt, 0.0, true});
            request.moves.push_back(kPass);
            request.current = request.current.pass();
            continue;
        }
        const int e = engine_of(side);
        const auto ue = static_cast<std::size_t>(e);
        fill_clocks(request);
        // A pondering engine is stopped (a wrong guess) before its clock starts, or goes on in think().
        const auto prepared = players[ue]->prepare_move(request);
        if (abort.load()) return aborted();
        if (prepared.fault != Fault::None) return forfeit(result, e, prepared, players);

        const auto started = SteadyClock::now();
        const auto flag = clocks[ue].flag_deadline(started);
        const auto deadline = flag ? *flag : started + settings.timeouts.hang;
        const ThinkOutcome outcome = players[ue]->think(request, deadline, flag.has_value());
        const auto used = std::chrono::duration_cast<Millis>(SteadyClock::now() - started);
        if (abort.load()) return aborted();
        if (!outcome.answer) return forfeit(result, e, outcome.failure, players);
        if (!clocks[ue].charge(used)) {
            return forfeit(result, e,
                           {Fault::TimeForfeit,
                            "the move came after " + std::to_string(used.count()) + " ms, beyond the flag plus margin"},
                           players);
        }
        const std::string& text = outcome.answer->move_text;
        const std::string said =
            outcome.answer->engine_error.empty() ? "" : " (the engine said: " + outcome.answer->engine_error + ")";
        const auto move = parse_move(text);
        if (!move || *move == kNoMove) {
            return forfeit(result, e, {Fault::Garbage, "unreadable move '" + text.substr(0, 40) + "'" + said}, players);
        }
        const auto next = apply_move(request.current, *move);
        if (!next) {
            return forfeit(result, e,
                           {Fault::Illegal,
                            "illegal move " + move_to_string(*move) + " in " + to_board_string(request.current) + said},
                           players);
        }
        result.moves.push_back(
            {*move, outcome.answer->eval, std::chrono::duration<double>(SteadyClock::now() - started).count(), false});
        request.moves.push_back(*move);
        request.current = *next;
        fill_clocks(request);
        if (const auto expected = expected_game(request, outcome.answer->ponder_text)) {
            if (const auto f = players[ue]->start_pondering(*expected); f.fault != Fault::None) {
                return forfeit(result, e, f, players);
            }
        }
    }
    const int score = request.current.final_score();
    result.black_discs = request.current.side == Color::Black ? score : -score;
    return result;
}

}  // namespace

std::optional<GameResult> play_game(const GameSpec& spec, std::array<EnginePlayer*, 2> players,
                                    const GameSettings& settings, const std::atomic<bool>& abort) {
    auto result = play_moves(spec, players, settings, abort);
    // An engine may still ponder (on the last move, or when the other lost by a fault): stopped and its
    // answer read before the next game (or quit).
    for (EnginePlayer* p : players) {
        if (p->running()) p->cancel_pondering();
    }
    return result;
}

}  // namespace reversi::match
