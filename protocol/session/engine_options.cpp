#include "protocol/session/engine_options.hpp"

#include "protocol/text/tokens.hpp"

namespace reversi::session {

using text::iequals;
using text::quote;

namespace {

const char* on_off(bool b) { return b ? "true" : "false"; }

const char* ordering_name(MoveOrdering m) {
    switch (m) {
        case MoveOrdering::Evaluated:
            return "evaluated";
        case MoveOrdering::None:
            return "none";
        default:
            return "normal";  // Fixed is not settable here (the comparison tool's)
    }
}

Expected<bool> parse_switch(std::string_view name, std::string_view value) {
    for (const char* t : {"on", "true", "1", "yes"}) {
        if (iequals(value, t)) return true;
    }
    for (const char* f : {"off", "false", "0", "no"}) {
        if (iequals(value, f)) return false;
    }
    return make_error("setoption " + std::string(name) + ": " + quote(value) + " is not on/off (true/false)");
}

}  // namespace

std::vector<std::string> option_lines(const EngineOptions& o, int max_threads) {
    std::vector<std::string> lines;
    lines.push_back("option name Hash type spin default " + std::to_string(o.hash_mib) + " min 1 max " +
                    std::to_string(kMaxHashMib));
    lines.push_back("option name Threads type spin default " + std::to_string(o.search.threads) + " min 1 max " +
                    std::to_string(max_threads));
    std::string algo = "option name Algorithm type combo default " + std::string(algorithm_name(o.search.algorithm));
    for (const char* a :
         {"minimax", "alphabeta", "alphabeta-hard", "negascout", "pvs", "scout", "mtdf", "sss", "dual", "cstar"}) {
        algo += " var ";
        algo += a;
    }
    lines.push_back(algo);
    lines.push_back(std::string("option name Aspiration type check default ") + on_off(o.search.aspiration));
    lines.push_back(std::string("option name TT type check default ") + on_off(o.search.use_tt));
    lines.push_back(std::string("option name IterativeDeepening type check default ") +
                    on_off(o.search.iterative_deepening));
    lines.push_back(std::string("option name Ordering type combo default ") + ordering_name(o.search.ordering) +
                    " var evaluated var normal var none");
    lines.push_back("option name Eval type combo default " + std::string(eval_kind_name(o.search.evaluation)) +
                    " var pattern var heuristic");
    lines.push_back("option name EvalFile type string default " + (o.eval_file.empty() ? "<empty>" : o.eval_file));
    lines.push_back("option name MultiPV type spin default " + std::to_string(o.search.multipv) + " min 1 max " +
                    std::to_string(kMaxMultiPv));
    lines.push_back("option name MoveOverhead type spin default " + std::to_string(o.move_overhead_ms) + " min 0 max " +
                    std::to_string(kMaxMoveOverheadMs));
    lines.push_back(std::string("option name Ponder type check default ") + on_off(o.ponder));
    lines.push_back("option name Selectivity type spin default " + std::to_string(o.search.selectivity) + " min " +
                    std::to_string(kMinSelectivityPercent) + " max " + std::to_string(kMaxSelectivityPercent));
    lines.push_back(std::string("option name Book type check default ") + on_off(o.book));
    lines.push_back("option name BookFile type string default " + (o.book_file.empty() ? "<empty>" : o.book_file));
    lines.push_back("option name BookRandomness type spin default " + std::to_string(o.book_randomness) +
                    " min 0 max " + std::to_string(kMaxBookRandomness));
    return lines;
}

namespace {

// The spin options: a number in a range, and where it goes.
struct SpinOption {
    const char* name;
    std::int64_t min;
    std::int64_t max;
    void (*set)(EngineOptions&, std::int64_t);
};
constexpr SpinOption kSpinOptions[] = {
    {"Hash", 1, static_cast<std::int64_t>(kMaxHashMib),
     [](EngineOptions& o, std::int64_t v) { o.hash_mib = static_cast<std::size_t>(v); }},
    {"Threads", 1, kMaxThreads, [](EngineOptions& o, std::int64_t v) { o.search.threads = static_cast<int>(v); }},
    {"MultiPV", 1, kMaxMultiPv, [](EngineOptions& o, std::int64_t v) { o.search.multipv = static_cast<int>(v); }},
    {"MoveOverhead", 0, kMaxMoveOverheadMs,
     [](EngineOptions& o, std::int64_t v) { o.move_overhead_ms = static_cast<int>(v); }},
    {"Selectivity", kMinSelectivityPercent, kMaxSelectivityPercent,
     [](EngineOptions& o, std::int64_t v) { o.search.selectivity = static_cast<int>(v); }},
    {"BookRandomness", 0, kMaxBookRandomness,
     [](EngineOptions& o, std::int64_t v) { o.book_randomness = static_cast<int>(v); }},
};

// The check options: on or off, and where it goes.
struct CheckOption {
    const char* name;
    void (*set)(EngineOptions&, bool);
};
constexpr CheckOption kCheckOptions[] = {
    {"Aspiration", [](EngineOptions& o, bool b) { o.search.aspiration = b; }},
    {"TT", [](EngineOptions& o, bool b) { o.search.use_tt = b; }},
    {"IterativeDeepening", [](EngineOptions& o, bool b) { o.search.iterative_deepening = b; }},
    {"Ponder", [](EngineOptions& o, bool b) { o.ponder = b; }},
    {"Book", [](EngineOptions& o, bool b) { o.book = b; }},
};

// The options whose value is a word or a path; false when `name` is none of them.
Expected<bool> assign_text_option(EngineOptions& o, std::string_view name, std::string_view value,
                                  const std::string& what) {
    if (iequals(name, "Algorithm")) {
        auto a = parse_algorithm(value);
        if (!a) return make_error(what + ": " + quote(value) + ": " + a.error().message);
        o.search.algorithm = *a;
    } else if (iequals(name, "Eval")) {
        auto e = parse_eval_kind(value);
        if (!e) return make_error(what + ": " + quote(value) + ": " + e.error().message);
        o.search.evaluation = *e;
    } else if (iequals(name, "BookFile") || iequals(name, "EvalFile")) {
        if (value.find('\0') != std::string_view::npos) return make_error(what + ": a path cannot hold a NUL byte");
        // Loaded (and checked) by the session.
        if (iequals(name, "BookFile")) o.book_file = iequals(value, "<empty>") ? std::string() : std::string(value);
        if (iequals(name, "EvalFile")) o.eval_file = std::string(value);
    } else if (iequals(name, "Ordering")) {
        if (iequals(value, "evaluated")) {
            o.search.ordering = MoveOrdering::Evaluated;
        } else if (iequals(value, "normal")) {
            o.search.ordering = MoveOrdering::Normal;
        } else if (iequals(value, "none")) {
            o.search.ordering = MoveOrdering::None;
        } else {
            return make_error(what + ": " + quote(value) + " is not evaluated, normal or none");
        }
    } else {
        return false;
    }
    return true;
}

}  // namespace

Expected<EngineOptions> assign_option(const EngineOptions& options, std::string_view name, std::string_view value) {
    EngineOptions o = options;
    const std::string what = "setoption " + std::string(name);
    if (value.empty()) return make_error(what + ": missing 'value <v>'");
    for (const SpinOption& spin : kSpinOptions) {
        if (!iequals(name, spin.name)) continue;
        auto v = text::parse_integer(value, spin.min, spin.max, what);
        if (!v) return v.error();
        spin.set(o, *v);
        return o;
    }
    for (const CheckOption& check : kCheckOptions) {
        if (!iequals(name, check.name)) continue;
        auto b = parse_switch(name, value);
        if (!b) return b.error();
        check.set(o, *b);
        return o;
    }
    auto assigned = assign_text_option(o, name, value, what);
    if (!assigned) return assigned.error();
    if (!*assigned) return make_error("setoption: unknown option " + quote(name));
    return o;
}

}  // namespace reversi::session
