// reversi-engine: the engine process. Until the protocol front end lands this is a small command loop
// on stdin/stdout: position, d, perft, quit.
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>

#include <spdlog/spdlog.h>

#include "engine/board/notation.hpp"
#include "engine/board/perft.hpp"
#include "protocol/cli/command_line.hpp"
#include "protocol/cli/logging.hpp"

using namespace reversi;

namespace {

void handle_position(std::istringstream& in, Position& pos) {
    std::string kind;
    in >> kind;
    Expected<Position> next = make_error("position: expected startpos, board <64 chars> <side> or variant <name>");
    std::string rest;
    if (kind == "startpos") {
        next = start_position();
    } else if (kind == "variant") {
        std::string name;
        in >> name;
        auto v = parse_variant(name);
        next = v ? Expected<Position>(start_position(*v)) : Expected<Position>(v.error());
    } else if (kind == "board") {
        std::string board, side;
        in >> board >> side;
        next = parse_board(board + " " + side);
    }
    std::string word;
    if (next && in >> word) {
        if (word != "moves") {
            next = make_error("position: unexpected '" + word + "' (expected moves)");
        } else {
            std::getline(in, rest);
            next = play_transcript(*next, rest);
        }
    }
    if (!next) {
        std::cout << "info string error: " << next.error().message << std::endl;
        return;
    }
    pos = *next;
}

}  // namespace

int main(int argc, char** argv) {
    const cli::ProgramSpec spec{
        "reversi-engine", "reversi-engine [options]",
        "Othello engine. Reads commands on stdin, one per line:\n"
        "  position startpos|variant NAME|board <64 chars> <side> [moves m1 m2 ...]\n"
        "  d          draw the board\n"
        "  perft N    count move paths of N plies (a pass counts as a ply)\n"
        "  quit",
        {{"log-level", true, "trace, debug, info, warn, error or off (default info)"}},
        ""};
    auto parsed = cli::parse_command_line(spec, argc, argv);
    if (parsed.exit_code) return *parsed.exit_code;
    cli::init_logging("engine", parsed.args.get("log-level", "info"));

    Position pos = start_position();
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string command;
        if (!(in >> command)) continue;
        if (command == "quit") break;
        if (command == "position") {
            handle_position(in, pos);
        } else if (command == "d") {
            std::cout << render_board(pos) << to_board_string(pos) << std::endl;
        } else if (command == "perft") {
            int depth = -1;
            if (!(in >> depth) || depth < 0 || depth > 20) {
                std::cout << "info string error: perft needs a depth 0..20" << std::endl;
                continue;
            }
            const auto start = std::chrono::steady_clock::now();
            const auto nodes = perft(pos, depth);
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - start).count();
            std::cout << "perft " << depth << " " << nodes << " time " << ms << std::endl;
        } else {
            std::cout << "info string error: unknown command '" << command << "'" << std::endl;
        }
    }
    return 0;
}
