#include "engine/eval/weights/weights_file.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace reversi::eval {

namespace {

constexpr std::array<std::uint32_t, 256> kCrcTable = [] {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    return table;
}();

void put16(std::vector<std::uint8_t>& out, std::uint16_t v) {
    out.push_back(static_cast<std::uint8_t>(v));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
}
void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
std::uint16_t get16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | (p[1] << 8)); }
std::uint32_t get32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

void put_varint(std::vector<std::uint8_t>& out, std::uint32_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
}

// Reads a varint of at most 5 bytes; false at the end of the data or on an over-long encoding.
bool get_varint(std::span<const std::uint8_t> data, std::size_t& at, std::uint32_t& v) {
    v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (at >= data.size()) return false;
        const std::uint8_t byte = data[at++];
        v |= static_cast<std::uint32_t>(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return true;
    }
    return false;
}

std::uint32_t zigzag(std::int32_t v) { return (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31); }
std::int32_t unzigzag(std::uint32_t v) { return static_cast<std::int32_t>(v >> 1) ^ -static_cast<std::int32_t>(v & 1); }

}  // namespace

std::uint32_t crc32(std::span<const std::uint8_t> bytes) noexcept {
    std::uint32_t c = 0xffffffffu;
    for (std::uint8_t b : bytes) c = kCrcTable[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

std::vector<std::uint8_t> encode_weights(const WeightSet& set) {
    std::vector<std::uint8_t> payload;
    for (int p = 0; p < kPhaseCount; ++p) {
        const std::int16_t* w = set.phase(p);
        std::uint32_t i = 0;
        while (true) {
            std::uint32_t run = 0;
            while (i + run < kWeightsPerPhase && w[i + run] == 0) ++run;
            put_varint(payload, run);
            i += run;
            if (i == kWeightsPerPhase) break;
            put_varint(payload, zigzag(w[i]));
            ++i;
        }
    }
    std::vector<std::uint8_t> out;
    out.reserve(kWeightsHeaderSize + payload.size());
    for (char c : std::string_view("RVPW")) out.push_back(static_cast<std::uint8_t>(c));
    put16(out, kWeightsFormatVersion);
    put16(out, kPhaseCount);
    put32(out, kWeightsPerPhase);
    put16(out, kEmptiesPerPhase);
    put16(out, kWeightScale);
    put32(out, set.trained_mask);
    put32(out, static_cast<std::uint32_t>(payload.size()));
    put32(out, crc32(payload));
    put32(out, crc32(std::span<const std::uint8_t>(out.data(), 28)));
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

Expected<WeightSet> decode_weights(std::span<const std::uint8_t> bytes, const std::string& source) {
    const auto fail = [&](const std::string& what) { return make_error("weights " + source + ": " + what); };
    if (bytes.size() < kWeightsHeaderSize) {
        return fail("truncated: " + std::to_string(bytes.size()) + " bytes, the header alone needs " +
                    std::to_string(kWeightsHeaderSize));
    }
    const std::uint8_t* h = bytes.data();
    if (std::memcmp(h, "RVPW", 4) != 0) return fail("not a weights file (bad magic, expected RVPW)");
    if (get32(h + 28) != crc32(bytes.first(28))) return fail("corrupted header (header checksum mismatch)");
    if (get16(h + 4) != kWeightsFormatVersion) {
        return fail("format version " + std::to_string(get16(h + 4)) + ", this build reads version " +
                    std::to_string(kWeightsFormatVersion));
    }
    if (get16(h + 6) != kPhaseCount || get32(h + 8) != kWeightsPerPhase || get16(h + 12) != kEmptiesPerPhase ||
        get16(h + 14) != kWeightScale) {
        return fail("made for another feature layout (phases " + std::to_string(get16(h + 6)) + ", weights per phase " +
                    std::to_string(get32(h + 8)) + ", scale " + std::to_string(get16(h + 14)) + ")");
    }
    const std::uint32_t payload_size = get32(h + 20);
    const std::size_t available = bytes.size() - kWeightsHeaderSize;
    if (available < payload_size) {
        return fail("truncated: the header announces " + std::to_string(payload_size) + " payload bytes, only " +
                    std::to_string(available) + " are present");
    }
    if (available > payload_size) return fail("trailing garbage after the payload");
    const auto payload = bytes.subspan(kWeightsHeaderSize);
    if (crc32(payload) != get32(h + 24)) return fail("corrupted payload (checksum mismatch)");

    WeightSet set;
    set.trained_mask = get32(h + 16);
    std::size_t at = 0;
    for (int p = 0; p < kPhaseCount; ++p) {
        std::int16_t* w = set.phase(p);
        std::uint32_t i = 0;
        while (true) {
            std::uint32_t run = 0;
            if (!get_varint(payload, at, run)) return fail("malformed payload in phase " + std::to_string(p));
            if (run > kWeightsPerPhase - i) return fail("zero run past the end of phase " + std::to_string(p));
            i += run;
            if (i == kWeightsPerPhase) break;
            std::uint32_t code = 0;
            if (!get_varint(payload, at, code)) return fail("malformed payload in phase " + std::to_string(p));
            const std::int32_t v = unzigzag(code);
            if (v == 0 || v < -32768 || v > 32767) return fail("bad weight value in phase " + std::to_string(p));
            w[i++] = static_cast<std::int16_t>(v);
        }
    }
    if (at != payload.size()) return fail("payload longer than its weights");
    return set;
}

Expected<WeightSet> load_weights_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error("weights " + path + ": cannot open the file");
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return make_error("weights " + path + ": read error");
    return decode_weights(bytes, path);
}

Expected<bool> save_weights_file(const WeightSet& set, const std::string& path) {
    const auto bytes = encode_weights(set);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return make_error("weights " + tmp + ": cannot create the file");
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!out.flush()) return make_error("weights " + tmp + ": write error");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) return make_error("weights " + path + ": cannot rename " + tmp + ": " + ec.message());
    return true;
}

}  // namespace reversi::eval
