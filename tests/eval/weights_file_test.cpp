// The weights file: round trip, and every kind of damage reported as an error (never a crash).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "engine/eval/pattern/pattern_evaluator.hpp"
#include "engine/eval/weights/embed_source.hpp"

using namespace reversi;
using namespace reversi::eval;

namespace {

WeightSet random_sparse_weights(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    WeightSet set;
    for (auto& w : set.weights) {
        const auto r = rng() % 100;
        if (r < 20)
            w = static_cast<std::int16_t>(static_cast<int>(rng() % 401) - 200);
        else if (r == 20)
            w = static_cast<std::int16_t>(static_cast<int>(rng() % 65535) - 32767);
    }
    set.weights.front() = 5;
    set.weights.back() = -32767;
    set.trained_mask = kAllPhasesMask;
    return set;
}

// A model with every kind of cell value: valid cells of several phases and depths, invalid ones left out.
ProbCutModel sample_model() {
    ProbCutModel m;
    for (int p = 1; p < kPhaseCount; ++p) {
        for (int d = ProbCutModel::kMinDepth; d <= 12 - p % 3; ++d) {
            auto& l = m.lines[static_cast<std::size_t>(p)][static_cast<std::size_t>(d)];
            l.shallow = static_cast<std::int8_t>(d / 2 - ((d / 2 - d) & 1));
            l.a = 0.9F + 0.013F * static_cast<float>(p) - 0.001F * static_cast<float>(d);
            l.b = -1.37F + 0.21F * static_cast<float>(d) / 3.0F;
            l.sigma = 2.5F + static_cast<float>(p * d) / 7.0F;
        }
    }
    return m;
}

// The version-1 encoding of a set without a Multi-ProbCut section: the v2 header without its
// section fields (bytes 28..35), the header CRC over bytes 0..27, the same payload.
std::vector<std::uint8_t> as_version1(const std::vector<std::uint8_t>& v2) {
    std::vector<std::uint8_t> v1(v2.begin(), v2.begin() + 28);
    v1[4] = 1;
    v1[5] = 0;
    const std::uint32_t crc = crc32(std::span<const std::uint8_t>(v1.data(), 28));
    for (int i = 0; i < 4; ++i) v1.push_back(static_cast<std::uint8_t>(crc >> (8 * i)));
    v1.insert(v1.end(), v2.begin() + static_cast<std::ptrdiff_t>(kWeightsHeaderSize), v2.end());
    return v1;
}

std::string eval_temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() / (std::string("reversi-eval-test-") + name)).string();
}

}  // namespace

TEST_CASE("weights encode/decode round-trips and the encoding is compact for sparse tables") {
    const WeightSet set = random_sparse_weights(1);
    const auto bytes = encode_weights(set);
    auto back = decode_weights(bytes, "memory");
    REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
    CHECK(back->weights == set.weights);
    CHECK(back->trained_mask == set.trained_mask);
    CHECK(bytes.size() < set.weights.size() * 2 / 2);  // much smaller than raw int16

    WeightSet zero;  // all zero, nothing trained
    auto zero_back = decode_weights(encode_weights(zero), "memory");
    REQUIRE(zero_back);
    CHECK(zero_back->trained_mask == 0);
    CHECK(encode_weights(zero).size() < 100);
}

TEST_CASE("weights files: save/load round trip, missing file, truncation and corruption are errors") {
    const WeightSet set = random_sparse_weights(2);
    const std::string path = eval_temp_path("roundtrip.weights");
    REQUIRE(save_weights_file(set, path));
    auto loaded = load_weights_file(path);
    REQUIRE(loaded);
    CHECK(loaded->weights == set.weights);

    auto missing = load_weights_file(eval_temp_path("does-not-exist.weights"));
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("cannot open") != std::string::npos);

    const auto bytes = encode_weights(set);
    // Every truncation point is an error.
    for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 3) {
        auto r = decode_weights(std::span(bytes.data(), cut), "cut");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("truncated") != std::string::npos);
    }
    // Every single-byte corruption is an error (CRC-32 detects all single-byte errors).
    std::mt19937_64 rng(3);
    for (int i = 0; i < 72; ++i) {  // every header byte, then random payload bytes
        auto damaged = bytes;
        const std::size_t at = i < 40 ? static_cast<std::size_t>(i) : rng() % damaged.size();
        damaged[at] ^= static_cast<std::uint8_t>(1 + rng() % 255);
        REQUIRE_FALSE(decode_weights(damaged, "damaged"));
    }
    auto tail = bytes;
    tail.push_back(0);
    CHECK_FALSE(decode_weights(tail, "tail"));
    auto flipped = bytes;
    flipped[40] ^= 0x10;
    auto r = decode_weights(flipped, "flipped");
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("checksum") != std::string::npos);

    // A partially trained file loads as weights but is refused by the evaluator.
    WeightSet partial = set;
    partial.trained_mask = 1;
    REQUIRE(save_weights_file(partial, path));
    auto evaluator = PatternEvaluator::from_file(path);
    REQUIRE_FALSE(evaluator);
    CHECK(evaluator.error().message.find("not every phase") != std::string::npos);
    std::filesystem::remove(path);
}

TEST_CASE("weights files: the Multi-ProbCut section round-trips exactly") {
    WeightSet set = random_sparse_weights(4);
    set.probcut = sample_model();
    const auto bytes = encode_weights(set);
    CHECK(bytes[4] == kWeightsFormatVersion);
    auto back = decode_weights(bytes, "memory");
    REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
    CHECK(back->weights == set.weights);
    REQUIRE(back->probcut.has_value());
    int valid = 0;
    for (int p = 0; p < kPhaseCount; ++p) {
        for (int d = 0; d <= ProbCutModel::kMaxDepth; ++d) {
            const auto& want = set.probcut->lines[static_cast<std::size_t>(p)][static_cast<std::size_t>(d)];
            const auto& got = back->probcut->lines[static_cast<std::size_t>(p)][static_cast<std::size_t>(d)];
            CHECK(got.shallow == want.shallow);
            CHECK(std::bit_cast<std::uint32_t>(got.a) == std::bit_cast<std::uint32_t>(want.a));  // bit-exact
            CHECK(std::bit_cast<std::uint32_t>(got.b) == std::bit_cast<std::uint32_t>(want.b));
            CHECK(std::bit_cast<std::uint32_t>(got.sigma) == std::bit_cast<std::uint32_t>(want.sigma));
            valid += got.valid() ? 1 : 0;
        }
    }
    CHECK(valid > 50);
    CHECK(back->probcut->line(3, 6) != nullptr);
    CHECK(back->probcut->line(0, 6) == nullptr);

    // No model, and a model without a valid cell, are both stored as no section.
    set.probcut.reset();
    auto none = decode_weights(encode_weights(set), "memory");
    REQUIRE(none);
    CHECK_FALSE(none->probcut.has_value());
    set.probcut = ProbCutModel{};
    CHECK(encode_weights(set).size() == encode_weights(WeightSet{set.weights, set.trained_mask, std::nullopt}).size());
}

TEST_CASE("weights files: version-1 files (no Multi-ProbCut section) still load") {
    const WeightSet set = random_sparse_weights(5);
    const auto v1 = as_version1(encode_weights(set));
    REQUIRE(v1.size() == encode_weights(set).size() - (kWeightsHeaderSize - kWeightsHeaderSizeV1));
    auto back = decode_weights(v1, "v1");
    REQUIRE_MESSAGE(back, (back ? "" : back.error().message));
    CHECK(back->weights == set.weights);
    CHECK(back->trained_mask == set.trained_mask);
    CHECK_FALSE(back->probcut.has_value());
    // A version-1 file has no section: bytes after its payload are garbage, and its checksum covers 0..27.
    auto tail = v1;
    tail.push_back(0);
    CHECK_FALSE(decode_weights(tail, "v1 tail"));
    for (std::size_t cut = 0; cut < v1.size(); cut += 1 + cut / 2)
        CHECK_FALSE(decode_weights(std::span(v1.data(), cut), "v1 cut"));
    auto damaged = v1;
    damaged[30] ^= 1;
    CHECK_FALSE(decode_weights(damaged, "v1 damaged"));
}

TEST_CASE("weights files: a truncated or corrupted Multi-ProbCut section is an error") {
    WeightSet set = random_sparse_weights(6);
    set.probcut = sample_model();
    const auto bytes = encode_weights(set);
    const std::size_t section_size = bytes[28] | (bytes[29] << 8) | (bytes[30] << 16);
    REQUIRE(section_size > 0);
    REQUIRE(section_size % kProbCutRecordSize == 0);
    const std::size_t section = bytes.size() - section_size;

    // Truncation anywhere in the section (including exactly at the end of the payload).
    for (std::size_t cut = section; cut < bytes.size(); cut += 5) {
        auto r = decode_weights(std::span(bytes.data(), cut), "cut");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("truncated Multi-ProbCut section") != std::string::npos);
    }
    // Any changed byte of the section fails its checksum.
    for (std::size_t at = section; at < bytes.size(); at += 7) {
        auto damaged = bytes;
        damaged[at] ^= 0x41;
        auto r = decode_weights(damaged, "damaged");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("Multi-ProbCut section (checksum mismatch)") != std::string::npos);
    }
    // Bad cell values with a correct checksum are refused, each with a message naming the defect.
    const auto patched = [&](std::size_t offset, std::uint8_t value) {
        auto b = bytes;
        b[section + offset] = value;
        const std::uint32_t crc = crc32(std::span<const std::uint8_t>(b.data() + section, section_size));
        for (int i = 0; i < 4; ++i) b[32 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(crc >> (8 * i));
        const std::uint32_t hcrc = crc32(std::span<const std::uint8_t>(b.data(), kWeightsHeaderSize - 4));
        for (int i = 0; i < 4; ++i) b[36 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(hcrc >> (8 * i));
        auto r = decode_weights(b, "patched");
        return r ? std::string("accepted") : r.error().message;
    };
    CHECK(patched(0, 0).find("accepted") != std::string::npos);  // the patching itself is sound
    CHECK(patched(0, kPhaseCount).find("bad phase") != std::string::npos);
    CHECK(patched(1, ProbCutModel::kMinDepth - 1).find("bad depth") != std::string::npos);
    CHECK(patched(1, ProbCutModel::kMaxDepth + 1).find("bad depth") != std::string::npos);
    CHECK(patched(2, 0).find("accepted") != std::string::npos);  // shallow 0: the static evaluation
    CHECK(patched(2, ProbCutModel::kMaxDepth).find("bad shallow") != std::string::npos);
    CHECK(patched(2, 40).find("bad shallow") != std::string::npos);
    CHECK(patched(3, 1).find("reserved") != std::string::npos);
    CHECK(patched(7, 0xff).find("bad values") != std::string::npos);   // a: negative NaN
    CHECK(patched(15, 0x80).find("bad values") != std::string::npos);  // sigma: negative
    {
        auto b = bytes;  // record 1 made a copy of record 0's cell
        std::copy_n(b.begin() + static_cast<std::ptrdiff_t>(section), 3,
                    b.begin() + static_cast<std::ptrdiff_t>(section + kProbCutRecordSize));
        const std::uint32_t crc = crc32(std::span<const std::uint8_t>(b.data() + section, section_size));
        for (int i = 0; i < 4; ++i) b[32 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(crc >> (8 * i));
        const std::uint32_t hcrc = crc32(std::span<const std::uint8_t>(b.data(), kWeightsHeaderSize - 4));
        for (int i = 0; i < 4; ++i) b[36 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(hcrc >> (8 * i));
        auto r = decode_weights(b, "duplicate");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.find("twice") != std::string::npos);
    }
}

TEST_CASE("the embedded default weights decode, are fully trained and are not trivial") {
    auto evaluator = PatternEvaluator::embedded_default();
    REQUIRE_MESSAGE(evaluator, (evaluator ? "" : evaluator.error().message));
    std::size_t nonzero = 0;
    for (auto w : evaluator->weights().weights) nonzero += w != 0 ? 1 : 0;
    CHECK(nonzero > 10000);
    CHECK(evaluator->name() == "pattern");
}

TEST_CASE("the embedded default weights carry a sane Multi-ProbCut model") {
    auto evaluator = PatternEvaluator::embedded_default();
    REQUIRE(evaluator);
    const auto& model = evaluator->weights().probcut;
    REQUIRE_MESSAGE(model.has_value(), "engine/data/pattern.weights has no Multi-ProbCut section");
    for (int phase = 2; phase <= 8; ++phase) {
        for (int depth = 3; depth <= 8; ++depth) {
            CAPTURE(phase);
            CAPTURE(depth);
            const ProbCutLine* line = model->line(phase, depth);
            REQUIRE(line != nullptr);
            CHECK(line->shallow >= 1);
            CHECK(line->shallow < depth);
            CHECK(line->a > 0.5F);
            CHECK(line->a < 1.5F);
            CHECK(line->sigma > 0.0F);
            CHECK(line->sigma < 15.0F);
            CHECK(std::abs(line->b) < 5.0F);
        }
    }
    for (int phase = 2; phase <= 8; ++phase) {  // depth 2: the static evaluation
        CAPTURE(phase);
        const ProbCutLine* line = model->line(phase, 2);
        REQUIRE(line != nullptr);
        CHECK(line->shallow == 0);
        CHECK(line->a > 0.5F);
        CHECK(line->a < 1.5F);
        CHECK(line->sigma > 0.0F);
        CHECK(line->sigma < 15.0F);
    }
    CHECK(model->line(0, 6) == nullptr);  // phase 0 (0-5 empties) is never calibrated
}

TEST_CASE("embed_source writes every byte and the size") {
    const std::vector<std::uint8_t> bytes = {1, 2, 255, 0};
    const std::string src = embed_source(bytes, "x.weights");
    CHECK(src.find("1,2,255,0,") != std::string::npos);
    CHECK(src.find("{kBytes, 4}") != std::string::npos);
}
