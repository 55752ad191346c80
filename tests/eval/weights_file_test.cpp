// The weights file: round trip, and every kind of damage reported as an error (never a crash).
#include <doctest/doctest.h>

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
        if (r < 20) w = static_cast<std::int16_t>(static_cast<int>(rng() % 401) - 200);
        else if (r == 20) w = static_cast<std::int16_t>(static_cast<int>(rng() % 65535) - 32767);
    }
    set.weights.front() = 5;
    set.weights.back() = -32767;
    set.trained_mask = kAllPhasesMask;
    return set;
}

std::string temp_path(const char* name) {
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
    const std::string path = temp_path("roundtrip.weights");
    REQUIRE(save_weights_file(set, path));
    auto loaded = load_weights_file(path);
    REQUIRE(loaded);
    CHECK(loaded->weights == set.weights);

    auto missing = load_weights_file(temp_path("does-not-exist.weights"));
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
    for (int i = 0; i < 64; ++i) {  // every header byte, then random payload bytes
        auto damaged = bytes;
        const std::size_t at = i < 32 ? static_cast<std::size_t>(i) : rng() % damaged.size();
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

TEST_CASE("the embedded default weights decode, are fully trained and are not trivial") {
    auto evaluator = PatternEvaluator::embedded_default();
    REQUIRE_MESSAGE(evaluator, (evaluator ? "" : evaluator.error().message));
    std::size_t nonzero = 0;
    for (auto w : evaluator->weights().weights) nonzero += w != 0 ? 1 : 0;
    CHECK(nonzero > 10000);
    CHECK(evaluator->name() == "pattern");
}

TEST_CASE("embed_source writes every byte and the size") {
    const std::vector<std::uint8_t> bytes = {1, 2, 255, 0};
    const std::string src = embed_source(bytes, "x.weights");
    CHECK(src.find("1,2,255,0,") != std::string::npos);
    CHECK(src.find("{kBytes, 4}") != std::string::npos);
}
