#include "engine/book/edax_book.hpp"

#include <algorithm>

#include "engine/core/little_endian.hpp"

namespace reversi::book {

namespace {

// The Edax node of one book position: its linked moves, the best other move, its value.
EdaxPosition edax_position(const Book& book, const BookKey& key, const BookNode& node, int level) {
    EdaxPosition out;
    out.board = key;
    out.level = level;
    const Position pos{key.player, key.opponent};
    int best = -kMaxBookValue - 1;
    for (const BookMove& m : node.moves) {
        best = std::max<int>(best, m.value);
        const BookChild child = book_child(pos, m.square);
        const bool linked = !child.final_value && child.sign < 0 && book.contains(child.position);
        const EdaxLink link{m.value, static_cast<std::uint8_t>(m.square)};
        if (linked) {
            out.links.push_back(link);
        } else if (out.leaf.move == kEdaxNoMove || m.value > out.leaf.score) {
            out.leaf = link;
        }
    }
    out.value = static_cast<std::int16_t>(best);
    return out;
}

void put_position(std::vector<std::uint8_t>& out, const EdaxPosition& p) {
    put_le<std::uint64_t>(out, p.board.player);
    put_le<std::uint64_t>(out, p.board.opponent);
    for (int i = 0; i < 4; ++i) put_le<std::uint32_t>(out, 0);  // wins, draws, losses, lines
    for (int i = 0; i < 3; ++i) put_le<std::int16_t>(out, p.value);
    out.push_back(static_cast<std::uint8_t>(p.links.size()));
    out.push_back(static_cast<std::uint8_t>(p.level));
    for (const EdaxLink& l : p.links) {
        out.push_back(static_cast<std::uint8_t>(l.score));
        out.push_back(l.move);
    }
    out.push_back(static_cast<std::uint8_t>(p.leaf.score));
    out.push_back(p.leaf.move);
}

// The defect of a decoded position, or an empty string.
std::string check_position(const EdaxPosition& p) {
    if ((p.board.player & p.board.opponent) != 0) return "overlapping discs";
    if (popcount(p.board.player | p.board.opponent) < 4) return "fewer than 4 discs";
    const Bitboard legal = legal_moves(p.board.player, p.board.opponent);
    const bool pass = legal == 0 && legal_moves(p.board.opponent, p.board.player) != 0;
    const auto playable = [&](std::uint8_t m) { return m < 64 ? (legal & square_bit(m)) != 0 : m == kPass && pass; };
    for (const EdaxLink& l : p.links) {
        if (!playable(l.move)) return "link to an illegal move " + std::to_string(l.move);
        if (l.score < -kMaxBookValue || l.score > kMaxBookValue) return "link score out of range";
    }
    if (p.leaf.move != kEdaxNoMove) {
        if (!playable(p.leaf.move)) return "leaf on an illegal move " + std::to_string(p.leaf.move);
        if (p.leaf.score < -kMaxBookValue || p.leaf.score > kMaxBookValue) return "leaf score out of range";
    }
    if (p.level < 0 || p.level > 60) return "level " + std::to_string(p.level) + " out of range";
    return {};
}

}  // namespace

std::vector<std::uint8_t> encode_edax_book(const Book& book, const EdaxBookSettings& settings) {
    std::vector<BookKey> keys;
    keys.reserve(book.size());
    int min_empties = 60;
    for (const auto& [key, node] : book.nodes()) {
        keys.push_back(key);
        min_empties = std::min(min_empties, 64 - popcount(key.player | key.opponent));
    }
    std::sort(keys.begin(), keys.end());
    std::vector<std::uint8_t> out;
    put_le<std::uint32_t>(out, kEdaxMagic);
    put_le<std::uint32_t>(out, kEdaxBookMagic);
    out.push_back(kEdaxVersion);
    out.push_back(kEdaxRelease);
    const EdaxDate& d = settings.date;
    put_le<std::int16_t>(out, d.year);
    for (std::int8_t v : {d.month, d.day, d.hour, d.minute, d.second}) out.push_back(static_cast<std::uint8_t>(v));
    out.push_back(0);  // padding of the date struct
    for (int v : {settings.level, min_empties, settings.midgame_error, settings.endcut_error, 1}) {
        put_le<std::int32_t>(out, v);
    }
    put_le<std::int32_t>(out, static_cast<std::int32_t>(keys.size()));
    for (const BookKey& key : keys) put_position(out, edax_position(book, key, *book.find(key), settings.level));
    return out;
}

Expected<std::vector<EdaxPosition>> decode_edax_book(std::span<const std::uint8_t> bytes, const std::string& source) {
    auto fail = [&](const std::string& what) { return make_error("Edax book " + source + ": " + what); };
    if (bytes.size() < kEdaxHeaderSize) return fail("truncated header (" + std::to_string(bytes.size()) + " bytes)");
    const std::uint8_t* h = bytes.data();
    if (get_le<std::uint32_t>(h) != kEdaxMagic || get_le<std::uint32_t>(h + 4) != kEdaxBookMagic) {
        return fail("not an Edax opening book (bad magic)");
    }
    if (h[8] != kEdaxVersion) return fail("version " + std::to_string(h[8]) + ", readable: 4 (Edax 4.x)");
    const auto count = get_le<std::int32_t>(h + 38);
    if (count < 0) return fail("negative position count");
    std::vector<EdaxPosition> out;
    std::size_t at = kEdaxHeaderSize;
    const std::size_t size = bytes.size();
    for (std::int32_t i = 0; i < count; ++i) {
        const std::string record = "position " + std::to_string(i) + ": ";
        if (size - at < kEdaxPositionSize) return fail(record + "file ends inside the position");
        const std::uint8_t* p = bytes.data() + at;
        EdaxPosition pos;
        pos.board = {get_le<std::uint64_t>(p), get_le<std::uint64_t>(p + 8)};
        pos.value = get_le<std::int16_t>(p + 32);
        const std::size_t links = p[38];
        pos.level = p[39];
        at += kEdaxPositionSize;
        if (size - at < 2 * (links + 1)) return fail(record + "file ends inside the links");
        for (std::size_t j = 0; j <= links; ++j) {
            const EdaxLink l{static_cast<std::int8_t>(bytes[at + 2 * j]), bytes[at + 2 * j + 1]};
            if (j < links)
                pos.links.push_back(l);
            else
                pos.leaf = l;
        }
        at += 2 * (links + 1);
        if (const std::string defect = check_position(pos); !defect.empty()) return fail(record + defect);
        out.push_back(std::move(pos));
    }
    if (at != size) return fail("bytes after the " + std::to_string(count) + " positions");
    return out;
}

}  // namespace reversi::book
