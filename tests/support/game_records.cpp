#include "tests/support/game_records.hpp"

#include "engine/board/variant.hpp"

namespace reversi::testing {

data::WthorGame play_recorded_game(const std::function<Move(const Position&)>& choose) {
    data::WthorGame game;
    Position pos = start_position();
    while (!pos.is_over()) {
        if (pos.must_pass()) pos = pos.pass();
        const Move m = choose(pos);
        game.moves.push_back(m);
        pos = pos.play(m);
    }
    const int black = pos.side == Color::Black ? pos.final_score() : -pos.final_score();
    game.black_score = (black + 64) / 2;
    return game;
}

}  // namespace reversi::testing
