#pragma once
// The pattern evaluation that measure and bench use: --weights FILE, else the embedded default.
#include <cstdio>
#include <optional>

#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "protocol/cli/command_line.hpp"

namespace reversi::train {

inline std::optional<eval::PatternEvaluator> load_pattern_evaluator(const cli::ParsedArgs& args) {
    auto loaded = args.has("weights") ? eval::PatternEvaluator::from_file(args.get("weights", ""))
                                      : eval::PatternEvaluator::embedded_default();
    if (!loaded) {
        std::fprintf(stderr, "reversi-train: %s\n", loaded.error().message.c_str());
        return std::nullopt;
    }
    return std::move(*loaded);
}

}  // namespace reversi::train
