#pragma once
// Tournaments of N >= 2 engines: which pairs play, and how the games of all pairs are numbered.
//   round-robin  every pair (a, b) with a < b, in the order (0,1), (0,2), ..., (1,2), ...
//   gauntlet     the first engine against each of the others: (0,1), (0,2), ..., (0,N-1)
// Every pairing plays the same `games_per_pair` games on the same openings: local game i of a pairing
// uses opening i/2, the pairing's first engine is black in even local games and white in odd ones.
// Global game numbers interleave the pairings by colour pair: global colour pair q = k * P + p is colour
// pair k of pairing p (P pairings), so global game g is local game 2 * (g / 2 / P) + g % 2 of pairing
// (g / 2) % P. The numbering does not depend on the number of games, so a tournament can be resumed
// with more games; with two engines (P = 1) the global number is the local one and the files are those
// of a plain match. Games are scheduled in global order: an interrupted tournament has played about as
// much of each pairing. The results log records global numbers, which is what makes --resume work
// across pairings.
// Header-only so that the tests check it directly.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reversi::match {

enum class TournamentKind { RoundRobin, Gauntlet };

[[nodiscard]] inline std::optional<TournamentKind> parse_tournament_kind(std::string_view s) {
    if (s == "round-robin") return TournamentKind::RoundRobin;
    if (s == "gauntlet") return TournamentKind::Gauntlet;
    return std::nullopt;
}

[[nodiscard]] inline const char* tournament_kind_name(TournamentKind k) {
    return k == TournamentKind::RoundRobin ? "round-robin" : "gauntlet";
}

struct Pairing {
    int first = 0;  // engine numbers; `first` is "A" in the pairing's statistics
    int second = 1;
    bool operator==(const Pairing&) const = default;
};

[[nodiscard]] inline std::vector<Pairing> tournament_pairings(int engines, TournamentKind kind) {
    std::vector<Pairing> out;
    if (kind == TournamentKind::Gauntlet) {
        for (int b = 1; b < engines; ++b) out.push_back({0, b});
        return out;
    }
    for (int a = 0; a < engines; ++a) {
        for (int b = a + 1; b < engines; ++b) out.push_back({a, b});
    }
    return out;
}

struct GameSlot {
    int pairing = 0;  // index into the pairings
    int local = 0;    // game number inside the pairing
    bool operator==(const GameSlot&) const = default;
};

[[nodiscard]] inline GameSlot locate_game(int global, int pairings) {
    const int pair = global / 2;
    return {pair % pairings, 2 * (pair / pairings) + global % 2};
}

[[nodiscard]] inline int global_game(GameSlot slot, int pairings) {
    return 2 * ((slot.local / 2) * pairings + slot.pairing) + slot.local % 2;
}

// Global game numbers in playing order (every pairing plays local games 0 .. games_per_pair - 1).
[[nodiscard]] inline std::vector<int> tournament_schedule(int pairings, int games_per_pair) {
    std::vector<int> out;
    const int end = 2 * pairings * ((games_per_pair + 1) / 2);
    for (int g = 0; g < end; ++g) {
        if (locate_game(g, pairings).local < games_per_pair) out.push_back(g);
    }
    return out;
}

}  // namespace reversi::match
