#include "engine/book/book.hpp"

#include <algorithm>
#include <cassert>

namespace reversi::book {

BookChild book_child(const Position& pos, Move m) noexcept {
    BookChild child{pos.play(m), -1, std::nullopt};
    if (child.position.is_over()) {
        child.final_value = -child.position.final_score();
    } else if (child.position.must_pass()) {
        child.position = child.position.pass();
        child.sign = 1;
    }
    return child;
}

bool Book::contains(const Position& pos) const {
    return book_variant(pos) && nodes_.find(canonical(pos).key) != nodes_.end();
}

const BookNode* Book::find(const BookKey& key) const {
    const auto it = nodes_.find(key);
    return it == nodes_.end() ? nullptr : &it->second;
}

std::vector<BookMove> Book::moves(const Position& pos) const {
    if (!book_variant(pos)) return {};
    const CanonicalPosition c = canonical(pos);
    const BookNode* node = find(c.key);
    if (node == nullptr) return {};
    std::vector<BookMove> out;
    out.reserve(node->moves.size());
    for (const BookMove& m : node->moves) {
        out.push_back({static_cast<Move>(eval::unmap_square(c.symmetry, m.square)), m.value});
    }
    std::sort(out.begin(), out.end(), [](const BookMove& a, const BookMove& b) {
        return a.value != b.value ? a.value > b.value : a.square < b.square;
    });
    return out;
}

std::optional<int> Book::value(const Position& pos) const {
    const auto m = moves(pos);
    if (m.empty()) return std::nullopt;
    return m.front().value;
}

bool Book::storable(const Position& pos) noexcept {
    const int moves = popcount(pos.moves());
    return popcount(pos.player | pos.opponent) >= 4 && moves >= 1 && static_cast<std::size_t>(moves) <= kMaxBookMoves;
}

bool Book::set_moves(const Position& pos, const std::vector<BookMove>& moves) {
    if (!storable(pos) || moves.size() != static_cast<std::size_t>(popcount(pos.moves()))) return false;
    Bitboard listed = 0;
    for (const BookMove& m : moves) listed |= m.square < 64 ? square_bit(m.square) : 0;
    if (listed != pos.moves()) return false;  // every legal move once (a file's reader checks the same)
    const CanonicalPosition c = canonical(pos);
    BookNode node;
    node.moves.reserve(moves.size());
    for (const BookMove& m : moves) {
        node.moves.push_back({static_cast<Move>(eval::map_square(c.symmetry, m.square)), m.value});
    }
    std::sort(node.moves.begin(), node.moves.end(),
              [](const BookMove& a, const BookMove& b) { return a.square < b.square; });
    nodes_[c.key] = std::move(node);
    return true;
}

void Book::insert(const BookKey& key, BookNode node) { nodes_[key] = std::move(node); }

namespace {

// Depth-first negamax with a memo: every child has more discs than its parent, so the recursion is at most
// 60 deep and ends.
class Negamax {
public:
    explicit Negamax(Book::Map& nodes) : nodes_(nodes) {}

    int value(const BookKey& key, BookNode& node) {
        if (const auto it = done_.find(key); it != done_.end()) return it->second;
        const Position pos{key.player, key.opponent};
        int best = -kMaxBookValue - 1;
        for (BookMove& m : node.moves) {
            const BookChild child = book_child(pos, m.square);
            int v = m.value;
            if (child.final_value) {
                v = *child.final_value;
            } else {
                const BookKey ck = canonical(child.position).key;
                if (const auto it = nodes_.find(ck); it != nodes_.end() && !it->second.moves.empty()) {
                    v = child.sign * value(ck, it->second);
                }
            }
            if (v != m.value) {
                m.value = static_cast<std::int8_t>(v);
                ++changed_;
            }
            best = std::max(best, v);
        }
        if (node.moves.empty()) best = 0;  // not stored by the builder; harmless
        done_.emplace(key, best);
        return best;
    }
    [[nodiscard]] std::size_t changed() const noexcept { return changed_; }

private:
    Book::Map& nodes_;
    std::unordered_map<BookKey, int, BookKeyHash> done_;
    std::size_t changed_ = 0;
};

}  // namespace

std::size_t Book::negamax() {
    Negamax n(nodes_);
    for (auto& [key, node] : nodes_) (void)n.value(key, node);
    return n.changed();
}

BookMove choose_book_move(const std::vector<BookMove>& moves, int randomness, std::uint64_t random) noexcept {
    assert(!moves.empty());
    if (randomness <= 0) return moves.front();
    const int best = moves.front().value;
    std::size_t candidates = 0;
    while (candidates < moves.size() && moves[candidates].value >= best - randomness) ++candidates;
    return moves[static_cast<std::size_t>(random % candidates)];
}

}  // namespace reversi::book
