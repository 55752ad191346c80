#include "engine/eval/weights/weights_file.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/core/replace_file.hpp"
#include "engine/core/unique_fd.hpp"

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

std::uint32_t zigzag(std::int32_t v) {
    return (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
}
std::int32_t unzigzag(std::uint32_t v) { return static_cast<std::int32_t>(v >> 1) ^ -static_cast<std::int32_t>(v & 1); }

// The Multi-ProbCut section: one record per valid cell (layout in weights_file.hpp).
std::vector<std::uint8_t> encode_probcut(const std::optional<ProbCutModel>& model) {
    std::vector<std::uint8_t> out;
    if (!model) return out;
    for (int p = 0; p < kPhaseCount; ++p) {
        for (int d = ProbCutModel::kMinDepth; d <= ProbCutModel::kMaxDepth; ++d) {
            const ProbCutLine& l = model->lines[static_cast<std::size_t>(p)][static_cast<std::size_t>(d)];
            if (!l.valid() || l.shallow >= d || !std::isfinite(l.a) || !std::isfinite(l.b) || !std::isfinite(l.sigma)) {
                continue;
            }
            out.push_back(static_cast<std::uint8_t>(p));
            out.push_back(static_cast<std::uint8_t>(d));
            out.push_back(static_cast<std::uint8_t>(l.shallow));
            out.push_back(0);
            put32(out, std::bit_cast<std::uint32_t>(l.a));
            put32(out, std::bit_cast<std::uint32_t>(l.b));
            put32(out, std::bit_cast<std::uint32_t>(l.sigma));
        }
    }
    return out;
}

// Decodes a section whose size and CRC have been checked; an error message or the model.
Expected<ProbCutModel> decode_probcut(std::span<const std::uint8_t> section) {
    if (section.size() % kProbCutRecordSize != 0) {
        return make_error("Multi-ProbCut section of " + std::to_string(section.size()) + " bytes, not a multiple of " +
                          std::to_string(kProbCutRecordSize));
    }
    ProbCutModel model;
    std::array<std::array<bool, ProbCutModel::kMaxDepth + 1>, kPhaseCount> seen{};
    for (std::size_t at = 0; at < section.size(); at += kProbCutRecordSize) {
        const std::uint8_t* r = section.data() + at;
        const int phase = r[0];
        const int depth = r[1];
        const int shallow = r[2];
        const std::string cell = "Multi-ProbCut record " + std::to_string(at / kProbCutRecordSize) + ": ";
        if (phase >= kPhaseCount) return make_error(cell + "bad phase " + std::to_string(phase));
        if (depth < ProbCutModel::kMinDepth || depth > ProbCutModel::kMaxDepth) {
            return make_error(cell + "bad depth " + std::to_string(depth) + " (expected " +
                              std::to_string(ProbCutModel::kMinDepth) + ".." + std::to_string(ProbCutModel::kMaxDepth) +
                              ")");
        }
        if (shallow < 0 || shallow >= depth) {
            return make_error(cell + "bad shallow depth " + std::to_string(shallow) + " for depth " +
                              std::to_string(depth));
        }
        if (r[3] != 0) return make_error(cell + "reserved byte is not 0");
        auto& was = seen[static_cast<std::size_t>(phase)][static_cast<std::size_t>(depth)];
        if (was)
            return make_error(cell + "phase " + std::to_string(phase) + " depth " + std::to_string(depth) + " twice");
        was = true;
        ProbCutLine& l = model.lines[static_cast<std::size_t>(phase)][static_cast<std::size_t>(depth)];
        l.shallow = static_cast<std::int8_t>(shallow);
        l.a = std::bit_cast<float>(get32(r + 4));
        l.b = std::bit_cast<float>(get32(r + 8));
        l.sigma = std::bit_cast<float>(get32(r + 12));
        if (!std::isfinite(l.a) || !std::isfinite(l.b) || !std::isfinite(l.sigma) || !l.valid()) {
            return make_error(cell + "bad values (a and sigma must be finite and positive, b finite)");
        }
    }
    return model;
}

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
    const std::vector<std::uint8_t> probcut = encode_probcut(set.probcut);
    std::vector<std::uint8_t> out;
    out.reserve(kWeightsHeaderSize + payload.size() + probcut.size());
    for (char c : std::string_view("RVPW")) out.push_back(static_cast<std::uint8_t>(c));
    put16(out, kWeightsFormatVersion);
    put16(out, kPhaseCount);
    put32(out, kWeightsPerPhase);
    put16(out, kEmptiesPerPhase);
    put16(out, kWeightScale);
    put32(out, set.trained_mask);
    put32(out, static_cast<std::uint32_t>(payload.size()));
    put32(out, crc32(payload));
    put32(out, static_cast<std::uint32_t>(probcut.size()));
    put32(out, probcut.empty() ? 0u : crc32(probcut));
    put32(out, crc32(std::span<const std::uint8_t>(out.data(), kWeightsHeaderSize - 4)));
    out.insert(out.end(), payload.begin(), payload.end());
    out.insert(out.end(), probcut.begin(), probcut.end());
    return out;
}

namespace {

// A header that passed its checks: the format version, the header's size and the two sections'.
struct CheckedHeader {
    std::uint16_t version = 0;
    std::size_t size = 0;
    std::uint32_t payload_size = 0;
    std::uint32_t probcut_size = 0;
};

std::string truncated_header(std::size_t have, std::size_t need) {
    return "truncated: " + std::to_string(have) + " bytes, the header alone needs " + std::to_string(need);
}

// The header's checks in order (size, magic, version, checksum, feature layout), then the sections'
// sizes against the file's; an error names the first defect.
Expected<CheckedHeader> check_header(std::span<const std::uint8_t> bytes) {
    if (bytes.size() < kWeightsHeaderSizeV1) return make_error(truncated_header(bytes.size(), kWeightsHeaderSizeV1));
    const std::uint8_t* h = bytes.data();
    if (std::memcmp(h, "RVPW", 4) != 0) return make_error("not a weights file (bad magic, expected RVPW)");
    CheckedHeader header;
    header.version = get16(h + 4);
    if (header.version != 1 && header.version != kWeightsFormatVersion) {
        // The version field itself may be the damaged byte: say so when the v1 or v2 checksum disagrees.
        return make_error("format version " + std::to_string(header.version) + ", this build reads versions 1 and " +
                          std::to_string(kWeightsFormatVersion) + " (or a corrupted header)");
    }
    header.size = header.version == 1 ? kWeightsHeaderSizeV1 : kWeightsHeaderSize;
    if (bytes.size() < header.size) return make_error(truncated_header(bytes.size(), header.size));
    if (get32(h + header.size - 4) != crc32(bytes.first(header.size - 4))) {
        return make_error("corrupted header (header checksum mismatch)");
    }
    if (get16(h + 6) != kPhaseCount || get32(h + 8) != kWeightsPerPhase || get16(h + 12) != kEmptiesPerPhase ||
        get16(h + 14) != kWeightScale) {
        return make_error("made for another feature layout (phases " + std::to_string(get16(h + 6)) +
                          ", weights per phase " + std::to_string(get32(h + 8)) + ", scale " +
                          std::to_string(get16(h + 14)) + ")");
    }
    header.payload_size = get32(h + 20);
    header.probcut_size = header.version == 1 ? 0 : get32(h + 28);
    const std::size_t available = bytes.size() - header.size;
    if (available < header.payload_size) {
        return make_error("truncated: the header announces " + std::to_string(header.payload_size) +
                          " payload bytes, only " + std::to_string(available) + " are present");
    }
    if (available - header.payload_size < header.probcut_size) {
        return make_error("truncated Multi-ProbCut section: the header announces " +
                          std::to_string(header.probcut_size) + " bytes, only " +
                          std::to_string(available - header.payload_size) + " are present");
    }
    if (available - header.payload_size > header.probcut_size) return make_error("trailing garbage after the payload");
    return header;
}

// The Multi-ProbCut section after the payload, checked against its checksum; none in a v1 file or when
// the header announces none.
Expected<std::optional<ProbCutModel>> read_probcut(std::span<const std::uint8_t> bytes, const CheckedHeader& header) {
    const std::uint8_t* h = bytes.data();
    if (header.probcut_size == 0) {
        if (header.version != 1 && get32(h + 32) != 0) {
            return make_error("corrupted header (a Multi-ProbCut checksum without a section)");
        }
        return std::optional<ProbCutModel>{};
    }
    const auto section = bytes.subspan(header.size + header.payload_size);
    if (crc32(section) != get32(h + 32)) return make_error("corrupted Multi-ProbCut section (checksum mismatch)");
    auto model = decode_probcut(section);
    if (!model) return model.error();
    return std::optional<ProbCutModel>{*model};
}

// Every phase's weights from the payload's tokens: a varint run of zeros, then a zigzag varint weight
// (never 0), until the phase is full; the payload must end with the last phase.
std::optional<std::string> decode_phases(std::span<const std::uint8_t> payload, WeightSet& set) {
    std::size_t at = 0;
    for (int p = 0; p < kPhaseCount; ++p) {
        std::int16_t* w = set.phase(p);
        std::uint32_t i = 0;
        while (true) {
            std::uint32_t run = 0;
            if (!get_varint(payload, at, run)) return "malformed payload in phase " + std::to_string(p);
            if (run > kWeightsPerPhase - i) return "zero run past the end of phase " + std::to_string(p);
            i += run;
            if (i == kWeightsPerPhase) break;
            std::uint32_t code = 0;
            if (!get_varint(payload, at, code)) return "malformed payload in phase " + std::to_string(p);
            const std::int32_t v = unzigzag(code);
            if (v == 0 || v < -32768 || v > 32767) return "bad weight value in phase " + std::to_string(p);
            w[i++] = static_cast<std::int16_t>(v);
        }
    }
    if (at != payload.size()) return "payload longer than its weights";
    return std::nullopt;
}

}  // namespace

Expected<WeightSet> decode_weights(std::span<const std::uint8_t> bytes, const std::string& source) {
    const auto fail = [&](const std::string& what) { return make_error("weights " + source + ": " + what); };
    const auto header = check_header(bytes);
    if (!header) return fail(header.error().message);
    const auto payload = bytes.subspan(header->size, header->payload_size);
    if (crc32(payload) != get32(bytes.data() + 24)) return fail("corrupted payload (checksum mismatch)");
    auto probcut = read_probcut(bytes, *header);
    if (!probcut) return fail(probcut.error().message);
    WeightSet set;
    set.trained_mask = get32(bytes.data() + 16);
    if (const auto error = decode_phases(payload, set)) return fail(*error);
    set.probcut = std::move(*probcut);
    return set;
}

namespace {

// Reads up to `limit` bytes from a regular file (retrying on EINTR); false on a read error.
bool read_up_to(int fd, std::vector<std::uint8_t>& bytes, std::size_t limit) {
    std::uint8_t chunk[65536];
    while (bytes.size() < limit) {
        const std::size_t want = std::min(sizeof chunk, limit - bytes.size());
        const ssize_t n = ::read(fd, chunk, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) break;
        bytes.insert(bytes.end(), chunk, chunk + n);
    }
    return true;
}

std::string too_large(std::size_t max_bytes) {
    const bool mib = max_bytes % (std::size_t{1} << 20) == 0;
    return "larger than the limit of " + std::to_string(mib ? max_bytes >> 20 : max_bytes) + (mib ? " MiB" : " bytes");
}

}  // namespace

Expected<std::vector<std::uint8_t>> read_weights_bytes(const std::string& path, std::size_t max_bytes,
                                                       const std::string& source, const std::string& what) {
    const std::string name = what + " " + (source.empty() ? path : source) + ": ";
    try {
        // O_NONBLOCK: opening a FIFO without a writer (or a device) must not wait; regular files ignore it.
        const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
        if (fd.get() < 0) return make_error(name + "cannot open the file");
        struct stat st {};
        if (::fstat(fd.get(), &st) != 0) return make_error(name + "cannot open the file");
        if (!S_ISREG(st.st_mode)) return make_error(name + "not a regular file");
        if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
            return make_error(name + too_large(max_bytes));
        }
        std::vector<std::uint8_t> bytes;
        bytes.reserve(static_cast<std::size_t>(st.st_size));
        // One byte past the cap tells a file that grew (or whose size the system reports as 0, as /proc
        // files do) from one that fits.
        if (!read_up_to(fd.get(), bytes, max_bytes + 1)) return make_error(name + "read error");
        if (bytes.size() > max_bytes) {
            return make_error(name + too_large(max_bytes));
        }
        return bytes;
    } catch (const std::bad_alloc&) {
        return make_error(name + "out of memory");
    }
}

Expected<WeightSet> load_weights_file(const std::string& path, const std::string& source) {
    auto bytes = read_weights_bytes(path, kMaxWeightsFileBytes, source);
    if (!bytes) return bytes.error();
    try {
        return decode_weights(*bytes, source.empty() ? path : source);
    } catch (const std::bad_alloc&) {
        return make_error("weights " + (source.empty() ? path : source) + ": out of memory");
    }
}

Expected<bool> save_weights_file(const WeightSet& set, const std::string& path) {
    return replace_file(path, encode_weights(set), "weights");
}

}  // namespace reversi::eval
