#pragma once
// The pattern-evaluation weights file ("RVPW" version 2; version 1 files are still read).
//
// Layout, all integers little-endian:
//   offset size  field
//        0    4  magic "RVPW"
//        4    2  format version (kWeightsFormatVersion = 2; 1 is read too, see below)
//        6    2  phase count (kPhaseCount)
//        8    4  weights per phase (kWeightsPerPhase: ties the file to the feature layout)
//       12    2  empties per phase (kEmptiesPerPhase)
//       14    2  scale: weight units per disc (kWeightScale)
//       16    4  trained-phase mask: bit p set when phase p has been fitted (a resumable run saves
//                partial files; a complete file has all kPhaseCount bits set)
//       20    4  payload size in bytes
//       24    4  CRC-32 (IEEE) of the payload
//       28    4  Multi-ProbCut section size in bytes (0: no calibration; a multiple of kProbCutRecordSize)
//       32    4  CRC-32 of the Multi-ProbCut section (0 when there is none)
//       36    4  CRC-32 of header bytes 0..35
//       40     payload: for each phase in order, its kWeightsPerPhase int16 weights as tokens
//                  varint(run of zero weights), then, unless the phase is complete, zigzag-varint(next
//                  weight, non-zero); a phase always ends with a zero-run token.
//                varint = LEB128 (7 bits per byte, low bits first, high bit = more bytes follow).
//   40+payload     Multi-ProbCut section (ProbCutModel, probcut_model.hpp): one 16-byte record per
//                  calibrated cell, in any order, each cell at most once:
//                    0  1  phase (0..kPhaseCount-1)
//                    1  1  node depth (ProbCutModel::kMinDepth..kMaxDepth; 2 since 2026-11-28, 3
//                          before: an older reader refuses a file with depth-2 cells, with an error)
//                    2  1  shallow depth (0..node depth - 1; 0 is the static evaluation)
//                    3  1  reserved, 0
//                    4  4  a      IEEE-754 binary32 bit pattern (stored exactly, finite, > 0)
//                    8  4  b      IEEE-754 binary32 bit pattern (finite)
//                   12  4  sigma  IEEE-754 binary32 bit pattern (discs, finite, > 0)
//                  Cells that are not valid() are not stored and read back as default (invalid) lines;
//                  a model without a valid cell is stored as no section (it reads back as nullopt).
// Version 1 (written before the Multi-ProbCut section existed): the same fields up to offset 27, the
// header CRC of bytes 0..27 at offset 28, the payload at offset 32, no section (probcut = nullopt).
// Most 3^10 configurations never occur in games, so the zero runs make the file compact.
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/core/expected.hpp"
#include "engine/core/huge_pages.hpp"
#include "engine/eval/pattern/pattern_layout.hpp"
#include "engine/eval/probcut_model.hpp"

namespace reversi::eval {

inline constexpr std::uint16_t kWeightsFormatVersion = 2;
inline constexpr int kWeightScale = 32;  // a weight of 32 is one disc
inline constexpr std::uint32_t kAllPhasesMask = (1u << kPhaseCount) - 1;

struct WeightsHeader {
    char magic[4];
    std::uint16_t version;
    std::uint16_t phase_count;
    std::uint32_t weights_per_phase;
    std::uint16_t empties_per_phase;
    std::uint16_t scale;
    std::uint32_t trained_mask;
    std::uint32_t payload_size;
    std::uint32_t payload_crc;
    std::uint32_t probcut_size;
    std::uint32_t probcut_crc;
    std::uint32_t header_crc;
};
inline constexpr std::size_t kWeightsHeaderSize = 40;
inline constexpr std::size_t kWeightsHeaderSizeV1 = 32;
static_assert(sizeof(WeightsHeader) == kWeightsHeaderSize, "the header is 40 bytes without padding");

struct ProbCutRecord {
    std::uint8_t phase;
    std::uint8_t depth;
    std::uint8_t shallow;
    std::uint8_t reserved;
    std::uint32_t a_bits;
    std::uint32_t b_bits;
    std::uint32_t sigma_bits;
};
inline constexpr std::size_t kProbCutRecordSize = 16;
static_assert(sizeof(ProbCutRecord) == kProbCutRecordSize, "a Multi-ProbCut record is 16 bytes without padding");
static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559, "floats are stored as IEEE-754 binary32");
static_assert(ProbCutModel::kMaxDepth <= 255 && kPhaseCount <= 255, "phase and depth fit a byte");
static_assert(kPhaseCount <= 32, "the trained-phase mask has 32 bits");

using WeightVector = std::vector<std::int16_t, HugePageAllocator<std::int16_t>>;

// All weights of all phases: weights[phase * kWeightsPerPhase + index], in units of 1/kWeightScale disc.
struct WeightSet {
    // In 2 MiB pages where the kernel grants them: an evaluation reads about 120 weights at random
    // across two phases' 1.6 MB, which in 4 KiB pages miss the TLB.
    WeightVector weights = WeightVector(std::size_t{kPhaseCount} * kWeightsPerPhase, 0);
    std::uint32_t trained_mask = 0;
    // Multi-ProbCut calibration measured with these weights (absent: no selective search).
    std::optional<ProbCutModel> probcut;

    [[nodiscard]] const std::int16_t* phase(int p) const noexcept {
        return weights.data() + static_cast<std::size_t>(p) * kWeightsPerPhase;
    }
    [[nodiscard]] std::int16_t* phase(int p) noexcept {
        return weights.data() + static_cast<std::size_t>(p) * kWeightsPerPhase;
    }
};

[[nodiscard]] std::uint32_t crc32(std::span<const std::uint8_t> bytes) noexcept;

[[nodiscard]] std::vector<std::uint8_t> encode_weights(const WeightSet& set);
// Every defect is an error naming it: short header, bad magic, other version or layout, truncated or
// over-long payload or Multi-ProbCut section, checksum mismatch, malformed tokens, bad cell values. `source` names the
// data in messages.
[[nodiscard]] Expected<WeightSet> decode_weights(std::span<const std::uint8_t> bytes, const std::string& source);

// The largest weights file read (the shipped one is about 660 KB): a bigger file is refused unread.
inline constexpr std::size_t kMaxWeightsFileBytes = std::size_t{64} << 20;
// No cap on the size, for files a tool wrote itself (the trainer's sample caches and checkpoints).
inline constexpr std::size_t kAnyFileBytes = std::numeric_limits<std::size_t>::max() - 1;

// Reads a whole weights file without ever throwing or blocking on a special file: only a regular file is
// read (a directory, FIFO, device or socket is refused after a non-blocking open), and at most
// `max_bytes` (a file that turns out longer is refused). `source` names the file in messages (the path
// when empty), after `what` (the kind of file: the other binary formats read through here too, e.g.
// "book"). Every failure is an error value: cannot open, not a regular file, too large, read error.
[[nodiscard]] Expected<std::vector<std::uint8_t>> read_weights_bytes(const std::string& path,
                                                                     std::size_t max_bytes = kMaxWeightsFileBytes,
                                                                     const std::string& source = {},
                                                                     const std::string& what = "weights");
// read_weights_bytes() then decode_weights(); never throws.
[[nodiscard]] Expected<WeightSet> load_weights_file(const std::string& path, const std::string& source = {});
// Writes through replace_file (engine/core/replace_file.hpp): an interrupted save never leaves a half-written file.
[[nodiscard]] Expected<bool> save_weights_file(const WeightSet& set, const std::string& path);

}  // namespace reversi::eval
