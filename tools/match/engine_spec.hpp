#pragma once
// Engine descriptions on the command line, cutechess-style key=value tokens after --engine:
//   name=A cmd="path args" | tcp=host:port   proto=uci|nboard   option.Hash=64 ...
//   depth=N | nodes=N | movetime=MS | tc=SECONDS[+INC]   timemargin=MS   stderr=FILE   dir=DIR
//   ponder=true (UCI pondering: go ponder after each own move, then ponderhit or stop)
//   transcript=FILE (every line sent to and read from the engine, appended)
// Tokens after --each apply to every engine (an engine's own tokens win).
#include <string>
#include <vector>

#include "engine/core/expected.hpp"
#include "tools/match/engine_player.hpp"

namespace reversi::match {

[[nodiscard]] Expected<EngineConfig> parse_engine_spec(const std::vector<std::string>& each,
                                                       const std::vector<std::string>& own, int number);
// A stable text of everything that changes the games (for the results log's fingerprint).
[[nodiscard]] std::string engine_fingerprint(const EngineConfig& e);

}  // namespace reversi::match
