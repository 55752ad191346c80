// The project's UCI-style protocol: uci/uciok, setoption, isready/readyok, ucinewgame,
// position startpos|board|variant ... moves ..., go depth|nodes|movetime|btime/wtime/binc/winc,
// info ... score cp X ..., bestmove <move>|pass|none [ponder <move>]; with ponder=true also go ponder,
// ponderhit and stop, as a GUI ponders.
#include "tools/match/uci_player.hpp"

#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "protocol/text/printable.hpp"

namespace reversi::match {

namespace {

// What the engine said last, for a failure's detail: a server that refuses a session says why before it
// closes the connection (" (its last line: 'info string error: server is full ...')").
std::string last_words(const EngineConnection& conn) {
    const std::string last = conn.last_received();
    return last.empty() ? "" : " (its last line: '" + text::printable(last, 200) + "')";
}

}  // namespace

EngineFailure failure_from_read(const ReadResult& r, bool deadline_is_flag, const std::string& waiting_for,
                                const EngineConnection& conn) {
    switch (r.status) {
        case ReadStatus::Timeout:
            if (deadline_is_flag) return {Fault::TimeForfeit, "no " + waiting_for + " before the flag fell"};
            return {Fault::Hang, "no " + waiting_for + " within the timeout"};
        case ReadStatus::Closed:
            spdlog::debug("connection closed while waiting for {}; last lines:\n{}", waiting_for,
                          conn.recent_traffic());
            return {Fault::Crash, "connection closed while waiting for " + waiting_for + last_words(conn)};
        case ReadStatus::TooLong:
            return {Fault::Garbage, "a line longer than " + std::to_string(kMaxLineLength) + " bytes"};
        case ReadStatus::Aborted:
            return {Fault::Crash, "interrupted"};  // never recorded: the game loop sees the abort flag
        case ReadStatus::Line:
            break;
    }
    return {};
}

UciPlayer::UciPlayer(EngineConfig config, PlayerTimeouts timeouts) : config_(std::move(config)), timeouts_(timeouts) {}

UciPlayer::~UciPlayer() { stop(); }

EngineFailure UciPlayer::wait_for(const std::string& token, Millis timeout) {
    const auto deadline = SteadyClock::now() + timeout;
    for (;;) {
        const auto r = conn_->read_line(deadline);
        if (r.status != ReadStatus::Line) return failure_from_read(r, false, "'" + token + "'", *conn_);
        if (r.line == token || r.line.rfind(token + " ", 0) == 0) return {};
    }
}

EngineFailure UciPlayer::start() {
    kill();
    auto conn = EngineConnection::open(config_.endpoint, SteadyClock::now() + timeouts_.handshake, timeouts_.abort);
    if (!conn) return {Fault::StartFailed, conn.error().message};
    conn_ = std::move(*conn);
    conn_->set_abort_flag(timeouts_.abort);
    if (!conn_->send_line("uci")) return {Fault::StartFailed, "cannot write to the engine"};
    if (auto f = wait_for("uciok", timeouts_.handshake); f.fault != Fault::None) {
        return {Fault::StartFailed, "handshake: " + f.detail};
    }
    for (const auto& [name, value] : config_.options) {
        if (!conn_->send_line("setoption name " + name + " value " + value)) {
            return {Fault::StartFailed, "cannot write to the engine"};
        }
    }
    if (config_.ponder && !conn_->send_line("setoption name Ponder value true")) {
        return {Fault::StartFailed, "cannot write to the engine"};
    }
    if (!conn_->send_line("isready")) return {Fault::StartFailed, "cannot write to the engine"};
    if (auto f = wait_for("readyok", timeouts_.handshake); f.fault != Fault::None) {
        return {Fault::StartFailed, "handshake: " + f.detail};
    }
    return {};
}

EngineFailure UciPlayer::new_game() {
    if (!conn_) return {Fault::Crash, "engine not running"};
    cancel_pondering();
    if (!conn_) return {Fault::Crash, "engine not running"};
    if (!conn_->send_line("ucinewgame") || !conn_->send_line("isready")) {
        return {Fault::Crash, "cannot write to the engine"};
    }
    return wait_for("readyok", timeouts_.handshake);
}

std::string UciPlayer::position_command(const MoveRequest& req) {
    std::string cmd = "position";
    const bool standard_start = req.start == start_position(req.variant);
    if (req.variant != Variant::Standard) cmd += " variant " + std::string(variant_info(req.variant).name);
    if (standard_start) {
        if (req.variant == Variant::Standard) cmd += " startpos";
    } else {
        cmd += " board " + to_board_string(req.start);
    }
    if (!req.moves.empty()) {
        cmd += " moves";
        for (Move m : req.moves) {
            cmd.push_back(' ');
            cmd.append(move_to_string(m));
        }
    }
    return cmd;
}

std::string UciPlayer::go_command(const MoveRequest& req) const {
    const TimeControl& tc = config_.tc;
    std::string cmd = "go";
    if (tc.has_clock()) {
        const Millis own =
            req.current.side == Color::Black ? req.black_time.value_or(Millis(0)) : req.white_time.value_or(Millis(0));
        const Millis black = req.black_time.value_or(own);
        const Millis white = req.white_time.value_or(own);
        cmd += " btime " + std::to_string(black.count()) + " wtime " + std::to_string(white.count()) + " binc " +
               std::to_string(req.black_increment.count()) + " winc " + std::to_string(req.white_increment.count());
    }
    if (tc.movetime) cmd += " movetime " + std::to_string(tc.movetime->count());
    if (tc.depth) cmd += " depth " + std::to_string(*tc.depth);
    if (tc.nodes) cmd += " nodes " + std::to_string(*tc.nodes);
    return cmd;
}

ThinkOutcome UciPlayer::think(const MoveRequest& request, SteadyClock::time_point deadline, bool deadline_is_flag) {
    ThinkOutcome out;
    if (!conn_) {
        out.failure = {Fault::Crash, "engine not running"};
        return out;
    }
    bool sent = false;
    if (ponderhit_) {  // prepare_move found the position pondered: the search goes on, the clock runs now
        ponderhit_ = false;
        pondering_.clear();
        sent = conn_->send_line("ponderhit");
    } else {
        sent = conn_->send_line(position_command(request)) && conn_->send_line(go_command(request));
    }
    if (!sent) {
        out.failure = {Fault::Crash, "cannot write to the engine"};
        return out;
    }
    return read_answer(deadline, deadline_is_flag);
}

ThinkOutcome UciPlayer::read_answer(SteadyClock::time_point deadline, bool deadline_is_flag) {
    ThinkOutcome out;
    MoveAnswer answer;
    for (;;) {
        const auto r = conn_->read_line(deadline);
        if (r.status != ReadStatus::Line) {
            out.failure = failure_from_read(r, deadline_is_flag, "bestmove", *conn_);
            return out;
        }
        std::istringstream in(r.line);
        std::string word;
        in >> word;
        if (word == "bestmove") {
            if (!(in >> answer.move_text)) answer.move_text = "";
            if (in >> word && word == "ponder" && !(in >> answer.ponder_text)) answer.ponder_text.clear();
            out.answer = answer;
            return out;
        }
        if (word != "info") continue;  // anything else is ignored, as UCI says
        while (in >> word) {
            if (word == "string") {
                if (r.line.find("error") != std::string::npos) answer.engine_error = r.line.substr(0, 200);
                break;
            }
            if (word == "score") {
                std::string kind;
                long long value = 0;
                if (in >> kind >> value && kind == "cp") answer.eval = static_cast<double>(value) / 100.0;
            } else if (word == "depth") {
                int d = 0;
                if (in >> d) answer.depth = d;
            } else if (word == "pv") {
                break;
            }
        }
    }
}

EngineFailure UciPlayer::start_pondering(const MoveRequest& expected) {
    if (!config_.ponder || !conn_) return {};
    const std::string position = position_command(expected);
    if (!conn_->send_line(position) || !conn_->send_line("go ponder" + go_command(expected).substr(2))) {
        return {Fault::Crash, "cannot write to the engine"};
    }
    pondering_ = position;
    return {};
}

EngineFailure UciPlayer::prepare_move(const MoveRequest& request) {
    ponderhit_ = false;
    if (pondering_.empty() || !conn_) return {};
    if (position_command(request) == pondering_) {
        ponderhit_ = true;
        return {};
    }
    return stop_pondering();
}

EngineFailure UciPlayer::stop_pondering() {
    pondering_.clear();
    ponderhit_ = false;
    if (!conn_->send_line("stop")) return {Fault::Crash, "cannot write to the engine"};
    const auto deadline = SteadyClock::now() + timeouts_.handshake;
    for (;;) {
        const auto r = conn_->read_line(deadline);
        if (r.status != ReadStatus::Line)
            return failure_from_read(r, false, "bestmove after stopping the pondering", *conn_);
        if (r.line == "bestmove" || r.line.rfind("bestmove ", 0) == 0) return {};
    }
}

void UciPlayer::cancel_pondering() {
    if (!conn_ || pondering_.empty()) return;
    if (const auto f = stop_pondering(); f.fault != Fault::None) {
        spdlog::warn("{}: {}; the engine is restarted", config_.name, f.detail);
        kill();
    }
}

void UciPlayer::stop() {
    cancel_pondering();
    if (!conn_) return;
    (void)conn_->send_line("quit");
    conn_->close(Millis(500));
    conn_.reset();
}

void UciPlayer::kill() {
    pondering_.clear();
    ponderhit_ = false;
    if (!conn_) return;
    conn_->close(Millis(0));
    conn_.reset();
}

}  // namespace reversi::match
