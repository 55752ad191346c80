// GGF file and results log, with resume (see result_store.hpp).
#include "tools/match/result_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "engine/board/variant_notation.hpp"
#include "engine/core/replace_file.hpp"

namespace reversi::match {

namespace {

constexpr const char* kLogHeader = "# reversi-match results v1 ";

// Engine text for the log and GGF files: every control byte (line breaks, NUL, terminal escapes) a space.
std::string one_line(std::string s) {
    for (char& c : s) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

// Text inside GGF brackets: no ']' and no newlines.
std::string ggf_text(std::string s) {
    s = one_line(std::move(s));
    for (char& c : s) {
        if (c == ']' || c == '[') c = '\'';
    }
    return s;
}

// How GGF writes a game's board: a square one (8x8, 6x6, 4x4) as its own n x n board, in its own
// coordinates (the variant's compact board and local squares); a diamond, which GGF cannot describe, on
// its 8x8 board (the squares outside the diamond empty).
struct GgfBoard {
    Variant frame = Variant::Standard;  // whose compact board and squares are written
    int size = 8;
};

GgfBoard ggf_board_of(const Position& start) {
    const int squares = popcount(start.playable);
    for (const int n : {8, 6, 4}) {
        if (n * n == squares) return {variant_of(start), n};
    }
    return {};
}

// A move as GGF writes it: upper case in the frame's coordinates, "PA" for a pass.
std::string ggf_move(Move m, const GgfBoard& board) {
    if (m == kPass) return "PA";
    std::string s = local_move_to_string(m, board.frame);
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

const std::map<std::string, Fault>& fault_names() {
    static const std::map<std::string, Fault> names = {
        {"normal", Fault::None}, {"illegal", Fault::Illegal},  {"garbage", Fault::Garbage},  {"crash", Fault::Crash},
        {"hang", Fault::Hang},   {"time", Fault::TimeForfeit}, {"start", Fault::StartFailed}};
    return names;
}

// Complete lines of a file (a last line without '\n' is dropped) and the byte length they cover.
std::vector<std::string> complete_lines(const std::string& path, std::uintmax_t& covered) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string data = ss.str();
    std::vector<std::string> lines;
    std::size_t pos = 0;
    for (;;) {
        const auto nl = data.find('\n', pos);
        if (nl == std::string::npos) break;
        lines.push_back(data.substr(pos, nl - pos));
        pos = nl + 1;
    }
    covered = pos;
    return lines;
}

bool write_and_sync(std::FILE* f, const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), f) != text.size()) return false;
    if (std::fflush(f) != 0) return false;
    return ::fsync(::fileno(f)) == 0;
}

int ggf_game_number(const std::string& line) {
    const auto at = line.find("GN[");
    if (at == std::string::npos) return -1;
    return std::atoi(line.c_str() + at + 3);
}

// An exclusive lock on the log, held as long as the descriptor is open; `create`: the file is created when
// missing (else no lock, fd -1, for a missing file). Where the file system has no locks (some network or
// FUSE ones), a warning and no lock.
Expected<UniqueFd> lock_log(const std::string& log_path, bool create) {
    UniqueFd fd(::open(log_path.c_str(), O_RDWR | (create ? O_CREAT : 0) | O_CLOEXEC, 0644));
    if (fd.get() < 0) {
        if (!create && errno == ENOENT) return fd;
        return make_error("cannot open " + log_path + ": " + std::strerror(errno));
    }
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            return make_error(log_path +
                              " is in use by another reversi-match (a match or coordinator with the same --out)");
        spdlog::warn("cannot lock {} ({}): a second run with the same --out would not be refused", log_path,
                     std::strerror(errno));
    }
    return fd;
}

// A log that holds no whole line and whose bytes begin this match's header: the runner was killed while
// it wrote the header, and the match starts over. Anything else is kept for the fingerprint check.
bool torn_header(const std::string& log_path, const std::string& header) {
    std::ifstream in(log_path, std::ios::binary);
    std::string head(header.size() + 1, '\0');  // enough to tell: a longer file is no torn header
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return head.find('\n') == std::string::npos && header.starts_with(head);
}

}  // namespace

std::string result_log_line(const GameResult& r) {
    std::ostringstream out;
    out << "game " << r.index << " opening " << r.opening_index << " black " << r.black << " discs " << r.black_discs
        << " reason " << fault_name(r.fault) << " faulty " << r.faulty_engine << " detail " << one_line(r.detail);
    return one_line(out.str());
}

Expected<GameResult> parse_result_log_line(const std::string& line) {
    std::istringstream in(line);
    GameResult r;
    std::string k_game, k_opening, k_black, k_discs, k_reason, reason, k_faulty, k_detail;
    if (!(in >> k_game >> r.index >> k_opening >> r.opening_index >> k_black >> r.black >> k_discs >> r.black_discs >>
          k_reason >> reason >> k_faulty >> r.faulty_engine >> k_detail) ||
        k_game != "game" || k_opening != "opening" || k_black != "black" || k_discs != "discs" ||
        k_reason != "reason" || k_faulty != "faulty" || k_detail != "detail") {
        return make_error("bad results line '" + line.substr(0, 80) + "'");
    }
    const auto f = fault_names().find(reason);
    if (f == fault_names().end()) return make_error("bad reason '" + reason + "' in results line");
    r.fault = f->second;
    if (r.index < 0 || (r.black != 0 && r.black != 1) || r.black_discs < -64 || r.black_discs > 64 ||
        (r.fault != Fault::None && r.faulty_engine != 0 && r.faulty_engine != 1)) {
        return make_error("out-of-range field in results line '" + line.substr(0, 80) + "'");
    }
    std::getline(in, r.detail);
    if (!r.detail.empty() && r.detail[0] == ' ') r.detail.erase(0, 1);
    return r;
}

namespace {

// Moves as GGF writes them: "B[F5]", "W[PA]", the colours alternating from the side to move at the start.
class GgfMoves {
public:
    GgfMoves(std::ostringstream& out, const GgfBoard& board, Color first) : out_(out), board_(board), side_(first) {}
    void add(Move m, const char* annotation) {
        out_ << (side_ == Color::Black ? "B[" : "W[") << ggf_move(m, board_) << annotation << "]";
        side_ = opposite(side_);
    }

private:
    std::ostringstream& out_;
    GgfBoard board_;
    Color side_;
};

// The game's board (TY, BO) and its opening's moves, unannotated.
GgfMoves write_ggf_opening(std::ostringstream& out, const Position& start, const std::vector<Move>& opening_moves) {
    const GgfBoard board = ggf_board_of(start);
    std::string squares = to_compact_board(start, board.frame);  // n x n squares, a space, X or O
    std::replace(squares.begin(), squares.end(), 'X', '*');
    out << "TY[" << board.size << "]BO[" << board.size << " " << squares << "]";
    GgfMoves moves(out, board, start.side);
    for (Move m : opening_moves) moves.add(m, "");
    return moves;
}

}  // namespace

std::string game_to_ggf_line(const GameResult& r, const std::array<std::string, 2>& names, const std::string& date) {
    std::ostringstream out;
    out << "(;GM[Othello]PC[reversi-match]DT[" << date << "]GN[" << r.index << "]PB["
        << ggf_text(names[static_cast<std::size_t>(r.black)]) << "]PW["
        << ggf_text(names[static_cast<std::size_t>(r.white())]) << "]";
    if (r.fault == Fault::None) {
        char re[32];
        std::snprintf(re, sizeof re, "%+d.000", r.black_discs);
        out << "RE[" << re << "]";
    } else {
        // GGF flags: t = timeout, r = resigned (used for every other forfeit); the reason goes to C[].
        const bool black_lost = r.faulty_engine == r.black;
        out << "RE[" << (black_lost ? "-64.000" : "+64.000") << (r.fault == Fault::TimeForfeit ? ":t" : ":r") << "]";
        out << "C[" << fault_name(r.fault) << " by " << ggf_text(names[static_cast<std::size_t>(r.faulty_engine)])
            << ": " << ggf_text(r.detail.substr(0, 300)) << "]";
    }
    GgfMoves moves = write_ggf_opening(out, r.start, r.opening_moves);
    for (const auto& mv : r.moves) {
        if (mv.forced_pass) {
            moves.add(kPass, "");
            continue;
        }
        char note[64];
        if (mv.eval) {
            std::snprintf(note, sizeof note, "/%.2f/%.3f", *mv.eval, mv.seconds);
        } else {
            std::snprintf(note, sizeof note, "//%.3f", mv.seconds);
        }
        moves.add(mv.move, note);
    }
    out << ";)";
    return out.str();
}

bool ggf_starts_at(const std::string& ggf_line, const Position& start, const std::vector<Move>& opening_moves) {
    std::ostringstream out;
    (void)write_ggf_opening(out, start, opening_moves);
    const std::string opening = out.str();
    const auto at = ggf_line.find("TY[");
    if (at == std::string::npos || ggf_line.compare(at, opening.size(), opening) != 0) return false;
    // What follows is the game's end, a forced pass, or a move the runner timed ("B[C4//0.012]"): not a
    // further unannotated move, which would be a longer opening.
    const std::string_view rest = std::string_view(ggf_line).substr(at + opening.size());
    if (rest.starts_with(";)") || rest.starts_with("B[PA]") || rest.starts_with("W[PA]")) return true;
    const auto close = rest.find(']');
    return rest.size() > 2 && (rest[0] == 'B' || rest[0] == 'W') && rest[1] == '[' && close != std::string_view::npos &&
           rest.substr(0, close).find('/') != std::string_view::npos;
}

ResultStore::~ResultStore() {
    if (log_) std::fclose(log_);
    if (ggf_) std::fclose(ggf_);
}

ResultStore::ResultStore(ResultStore&& other) noexcept
    : lock_(std::move(other.lock_)), log_(other.log_), ggf_(other.ggf_), previous_(std::move(other.previous_)) {
    other.log_ = nullptr;
    other.ggf_ = nullptr;
}

Expected<ResultStore> ResultStore::open(const std::string& prefix, const std::string& fingerprint, bool resume,
                                        bool overwrite) {
    namespace fs = std::filesystem;
    const std::string log_path = prefix + ".log";
    const std::string ggf_path = prefix + ".ggf";
    ResultStore store;
    std::error_code ec;
    // The lock first: files another run is writing are "in use", not "exists: continue with --resume".
    auto lock = lock_log(log_path, false);
    if (!lock) return lock.error();
    store.lock_ = std::move(*lock);
    const bool log_exists = fs::exists(log_path, ec);
    if (!resume && !overwrite && (log_exists || fs::exists(ggf_path, ec))) {
        return make_error(log_path + " or " + ggf_path + " exists: continue it with --resume, or --overwrite");
    }
    if (store.lock_.get() < 0) {
        auto created = lock_log(log_path, true);
        if (!created) return created.error();
        store.lock_ = std::move(*created);
    }
    if (resume && log_exists && !torn_header(log_path, kLogHeader + fingerprint)) {
        std::uintmax_t covered = 0;
        const auto lines = complete_lines(log_path, covered);
        if (lines.empty() || lines[0] != kLogHeader + fingerprint) {
            return make_error(log_path +
                              " belongs to a different match (engines, openings or settings differ); "
                              "use another --out or --overwrite");
        }
        std::set<int> seen;
        for (std::size_t i = 1; i < lines.size(); ++i) {
            auto r = parse_result_log_line(lines[i]);
            if (!r) return make_error(log_path + ":" + std::to_string(i + 1) + ": " + r.error().message);
            if (!seen.insert(r->index).second) continue;  // cannot happen with this writer; never count twice
            store.previous_.push_back(std::move(*r));
        }
        fs::resize_file(log_path, covered, ec);  // cut a torn last line
        if (ec) return make_error("cannot repair " + log_path + ": " + ec.message());
        // Keep exactly one GGF line per logged game.
        std::uintmax_t ggf_covered = 0;
        const auto ggf_lines =
            fs::exists(ggf_path, ec) ? complete_lines(ggf_path, ggf_covered) : std::vector<std::string>{};
        std::set<int> written;
        std::string kept;
        for (const auto& l : ggf_lines) {
            const int n = ggf_game_number(l);
            if (seen.count(n) && written.insert(n).second) kept += l + "\n";
        }
        if (auto r = replace_file(ggf_path, std::string_view(kept), "games"); !r) return r.error();
        // "e": close-on-exec, so that the engines the runner starts do not inherit the files.
        store.log_ = std::fopen(log_path.c_str(), "abe");
        store.ggf_ = std::fopen(ggf_path.c_str(), "abe");
    } else {
        store.log_ = std::fopen(log_path.c_str(), "wbe");
        store.ggf_ = std::fopen(ggf_path.c_str(), "wbe");
        if (store.log_ && !write_and_sync(store.log_, kLogHeader + fingerprint + "\n")) {
            return make_error("cannot write " + log_path);
        }
    }
    if (!store.log_ || !store.ggf_) return make_error("cannot open " + log_path + " / " + ggf_path + " for writing");
    return store;
}

std::string ggf_date_now() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&now, &tm);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S GMT", &tm);
    return date;
}

Expected<bool> ResultStore::append(const GameResult& r, const std::array<std::string, 2>& names) {
    return append_lines(game_to_ggf_line(r, names, ggf_date_now()), result_log_line(r));
}

Expected<bool> ResultStore::append_lines(const std::string& ggf_line, const std::string& log_line) {
    if (!write_and_sync(ggf_, ggf_line + "\n")) return make_error("cannot write the GGF file");
    if (!write_and_sync(log_, log_line + "\n")) return make_error("cannot write the results log");
    return true;
}

}  // namespace reversi::match
