// NBoard protocol adapter (see nboard_player.hpp).
#include "tools/match/nboard_player.hpp"

#include <cctype>
#include <cmath>
#include <sstream>

#include "engine/board/notation.hpp"
#include "tools/match/uci_player.hpp"

namespace reversi::match {

NBoardPlayer::NBoardPlayer(EngineConfig config, PlayerTimeouts timeouts)
    : config_(std::move(config)), timeouts_(timeouts) {}

NBoardPlayer::~NBoardPlayer() { stop(); }

EngineFailure NBoardPlayer::ping(Millis timeout) {
    const std::string n = std::to_string(++ping_counter_);
    if (!conn_->send_line("ping " + n)) return {Fault::Crash, "cannot write to the engine"};
    const auto deadline = SteadyClock::now() + timeout;
    for (;;) {
        const auto r = conn_->read_line(deadline);
        if (r.status != ReadStatus::Line) return failure_from_read(r, false, "'pong " + n + "'", *conn_);
        if (r.line == "pong " + n) return {};
    }
}

EngineFailure NBoardPlayer::start() {
    kill();
    auto conn = EngineConnection::open(config_.endpoint, SteadyClock::now() + timeouts_.handshake, timeouts_.abort);
    if (!conn) return {Fault::StartFailed, conn.error().message};
    conn_ = std::move(*conn);
    conn_->set_abort_flag(timeouts_.abort);
    const int depth = config_.tc.depth.value_or(1);
    if (!conn_->send_line("nboard 2") || !conn_->send_line("set depth " + std::to_string(depth))) {
        return {Fault::StartFailed, "cannot write to the engine"};
    }
    if (auto f = ping(timeouts_.handshake); f.fault != Fault::None)
        return {Fault::StartFailed, "handshake: " + f.detail};
    return {};
}

EngineFailure NBoardPlayer::new_game() {
    if (!conn_) return {Fault::Crash, "engine not running"};
    return ping(timeouts_.handshake);
}

std::string NBoardPlayer::game_to_ggf(const MoveRequest& req) {
    std::string board = to_board_string(req.start);  // 64 chars X/O/-, space, side X/O
    for (char& c : board) {
        if (c == 'X') c = '*';
    }
    std::string ggf = "(;GM[Othello]PC[reversi-match]PB[black]PW[white]RE[?]TI[0:00]TY[8]BO[8 " + board + "]";
    Color side = req.start.side;
    for (Move m : req.moves) {
        std::string text = m == kPass ? "PA" : move_to_string(m);
        for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ggf += (side == Color::Black ? "B[" : "W[") + text + "]";
        side = opposite(side);
    }
    return ggf + ";)";
}

ThinkOutcome NBoardPlayer::think(const MoveRequest& request, SteadyClock::time_point deadline, bool deadline_is_flag) {
    ThinkOutcome out;
    if (!conn_) {
        out.failure = {Fault::Crash, "engine not running"};
        return out;
    }
    if (!conn_->send_line("set game " + game_to_ggf(request)) || !conn_->send_line("go")) {
        out.failure = {Fault::Crash, "cannot write to the engine"};
        return out;
    }
    for (;;) {
        const auto r = conn_->read_line(deadline);
        if (r.status != ReadStatus::Line) {
            out.failure = failure_from_read(r, deadline_is_flag, "'=== move'", *conn_);
            return out;
        }
        if (r.line.rfind("===", 0) != 0) continue;  // status, nodestats, search, ... are ignored
        // "=== f5/-1.00/0.3" or Edax's "=== f5 -1.00 0.3"
        std::string rest = r.line.substr(3);
        for (char& c : rest) {
            if (c == '/') c = ' ';
        }
        std::istringstream in(rest);
        MoveAnswer answer;
        in >> answer.move_text;
        std::string eval;
        if (in >> eval) {
            // "a,b" draw-seeking/draw-avoiding pairs: take the first
            if (const auto comma = eval.find(','); comma != std::string::npos) eval.resize(comma);
            char* end = nullptr;
            const double v = std::strtod(eval.c_str(), &end);
            if (end != eval.c_str() && *end == '\0' && std::isfinite(v)) answer.eval = v;  // not nan, inf
        }
        out.answer = answer;
        return out;
    }
}

void NBoardPlayer::stop() {
    if (!conn_) return;
    (void)conn_->send_line("quit");
    conn_->close(Millis(500));
    conn_.reset();
}

void NBoardPlayer::kill() {
    if (!conn_) return;
    conn_->close(Millis(0));
    conn_.reset();
}

std::unique_ptr<EnginePlayer> make_player(const EngineConfig& config, const PlayerTimeouts& timeouts) {
    if (config.protocol == Protocol::NBoard) return std::make_unique<NBoardPlayer>(config, timeouts);
    return std::make_unique<UciPlayer>(config, timeouts);
}

}  // namespace reversi::match
