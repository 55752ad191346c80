#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

#include "engine/search/search_types.hpp"

namespace reversi {

namespace {

constexpr std::array<std::pair<std::string_view, Algorithm>, 10> kNames = {{
    {"minimax", Algorithm::Minimax},
    {"alphabeta", Algorithm::AlphaBeta},
    {"alphabeta-hard", Algorithm::AlphaBetaHard},
    {"negascout", Algorithm::NegaScout},
    {"pvs", Algorithm::NegaScout},
    {"scout", Algorithm::Scout},
    {"mtdf", Algorithm::MtdF},
    {"sss", Algorithm::Sss},
    {"dual", Algorithm::Dual},
    {"cstar", Algorithm::CStar},
}};

}  // namespace

Expected<Algorithm> parse_algorithm(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const auto& [text, algorithm] : kNames) {
        if (lower == text) return algorithm;
    }
    return make_error("unknown algorithm '" + std::string(name) +
                      "' (expected minimax, alphabeta, alphabeta-hard, negascout, pvs, scout, mtdf, sss, dual or "
                      "cstar)");
}

std::string_view algorithm_name(Algorithm a) noexcept {
    for (const auto& [text, algorithm] : kNames) {
        if (algorithm == a) return text;
    }
    return "unknown";
}

}  // namespace reversi

namespace reversi {

Expected<EvalKind> parse_eval_kind(std::string_view name) {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "pattern") return EvalKind::Pattern;
    if (lower == "heuristic") return EvalKind::Heuristic;
    return make_error("unknown evaluation '" + std::string(name) + "' (expected pattern or heuristic)");
}

std::string_view eval_kind_name(EvalKind e) noexcept { return e == EvalKind::Pattern ? "pattern" : "heuristic"; }

}  // namespace reversi
