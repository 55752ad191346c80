#include "engine/eval/pattern/training/search_targets.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <thread>

#include "engine/core/little_endian.hpp"
#include "engine/eval/weights/weights_file.hpp"

namespace reversi::eval {

namespace {

constexpr char kMagic[4] = {'R', 'V', 'S', 'T'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderSize = 12;  // magic, version, tag
constexpr std::size_t kRecordSize = 17;  // player u64, opponent u64, score i8
static_assert(kHeaderSize == sizeof(kMagic) + 2 * sizeof(std::uint32_t));
static_assert(kRecordSize == 2 * sizeof(Bitboard) + sizeof(std::int8_t));

std::vector<std::uint8_t> encode_chunk(const std::vector<ScoredPosition>& records) {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(4 + kRecordSize * records.size() + 4);
    put_le<std::uint32_t>(bytes, static_cast<std::uint32_t>(records.size()));
    for (const auto& r : records) {
        put_le<std::uint64_t>(bytes, r.player);
        put_le<std::uint64_t>(bytes, r.opponent);
        bytes.push_back(static_cast<std::uint8_t>(r.score));
    }
    put_le<std::uint32_t>(bytes, crc32(bytes));
    return bytes;
}

// Appends chunks to the checkpoint file (created with its header when missing).
class CheckpointWriter {
public:
    static Expected<CheckpointWriter> open(const std::string& path, std::uint32_t tag, std::uintmax_t keep_bytes) {
        std::error_code ec;
        const bool exists = std::filesystem::exists(path, ec);
        if (exists) {
            std::filesystem::resize_file(path, keep_bytes, ec);  // drops a chunk cut short by an interruption
            if (ec) return make_error("search checkpoint " + path + ": " + ec.message());
        }
        CheckpointWriter w;
        w.out_.open(path, std::ios::binary | std::ios::app);
        if (!w.out_) return make_error("search checkpoint " + path + ": cannot open for writing");
        if (!exists) {
            std::vector<std::uint8_t> header(kMagic, kMagic + 4);
            put_le<std::uint32_t>(header, kVersion);
            put_le<std::uint32_t>(header, tag);
            if (!w.write(header)) return make_error("search checkpoint " + path + ": write error");
        }
        return w;
    }
    bool write(const std::vector<std::uint8_t>& bytes) {
        out_.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        return static_cast<bool>(out_.flush());
    }

private:
    std::ofstream out_;
};

struct LoadedCheckpoint {
    std::vector<ScoredPosition> records;
    std::uintmax_t usable_bytes = 0;  // header and complete chunks
};

Expected<LoadedCheckpoint> read_checkpoint(const std::string& path, std::uint32_t tag) {
    LoadedCheckpoint loaded;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return loaded;
    auto read = read_weights_bytes(path, kAnyFileBytes, {}, "search checkpoint");
    if (!read) return read.error();
    const std::vector<std::uint8_t> bytes = std::move(*read);
    const auto fail = [&](const std::string& what) { return make_error("search checkpoint " + path + ": " + what); };
    if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic, 4) != 0) return fail("not a search checkpoint");
    if (get_le<std::uint32_t>(bytes.data() + 4) != kVersion) return fail("other checkpoint version");
    if (get_le<std::uint32_t>(bytes.data() + 8) != tag) return fail("made with other search settings (tag differs)");
    std::size_t at = kHeaderSize;
    while (at + 4 <= bytes.size()) {
        const std::size_t count = get_le<std::uint32_t>(bytes.data() + at);
        const std::size_t size = 4 + kRecordSize * count + 4;
        if (at + size > bytes.size()) break;  // cut short: the rest is written again
        const std::span<const std::uint8_t> body(bytes.data() + at, size - 4);
        if (crc32(body) != get_le<std::uint32_t>(bytes.data() + at + size - 4))
            return fail("corrupted chunk at byte " + std::to_string(at));
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint8_t* r = bytes.data() + at + 4 + kRecordSize * i;
            loaded.records.push_back(
                {get_le<std::uint64_t>(r), get_le<std::uint64_t>(r + 8), static_cast<std::int8_t>(r[16])});
        }
        at += size;
    }
    loaded.usable_bytes = at;
    return loaded;
}

}  // namespace

Expected<std::vector<ScoredPosition>> load_search_checkpoint(const std::string& path, std::uint32_t tag) {
    auto loaded = read_checkpoint(path, tag);
    if (!loaded) return loaded.error();
    return std::move(loaded->records);
}

namespace {

using Score = std::optional<std::int8_t>;  // a clamped search score; nullopt: the scorer declined

bool by_position(const ScoredPosition& a, const ScoredPosition& b) {
    return a.player != b.player ? a.player < b.player : a.opponent < b.opponent;
}

// The score of `s` among records sorted by position, if they have it.
Score find_score(const std::vector<ScoredPosition>& sorted, const Sample& s) {
    const ScoredPosition key{s.player, s.opponent, 0};
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), key, by_position);
    if (it == sorted.end() || it->player != s.player || it->opponent != s.opponent) return std::nullopt;
    return it->score;
}

// Scores the samples samples[selected[todo[t]]] into scores[todo[t]], block by block on config.threads
// threads, appending each finished block to `writer` when there is one; false on a write error.
bool search_missing(const std::vector<Sample>& samples, const std::vector<std::size_t>& selected,
                    const std::vector<std::size_t>& todo, std::vector<Score>& scores, const SearchTargetConfig& config,
                    CheckpointWriter* writer, const std::function<void(std::size_t)>& on_block) {
    const std::size_t block = std::max<std::size_t>(1, config.block);
    const std::size_t blocks = (todo.size() + block - 1) / block;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    const auto work = [&] {
        PositionScorer scorer;  // made when this thread takes its first block (none when nothing is missing)
        for (std::size_t b; !failed && (b = next++) < blocks;) {
            if (!scorer) scorer = config.scorer_factory();
            std::vector<ScoredPosition> chunk;
            const std::size_t end = std::min(todo.size(), (b + 1) * block);
            for (std::size_t t = b * block; t < end; ++t) {
                const auto& s = samples[selected[todo[t]]];
                Position pos;
                pos.player = s.player;
                pos.opponent = s.opponent;
                const auto v = scorer(pos);
                if (!v) continue;
                scores[todo[t]] = static_cast<std::int8_t>(std::clamp(*v, -64, 64));
                chunk.push_back({s.player, s.opponent, *scores[todo[t]]});
            }
            const std::lock_guard lock(mutex);
            if (writer && !writer->write(encode_chunk(chunk))) failed = true;
            on_block(end - b * block);
        }
    };
    std::vector<std::jthread> pool;
    for (int t = 1; t < config.threads; ++t) pool.emplace_back(work);
    work();
    pool.clear();  // joins
    return !failed;
}

}  // namespace

double search_weight_at(const SearchTargetConfig& config, int empties) noexcept {
    if (config.weight_high < 0 || config.max_empties == config.min_empties) return config.weight;
    const double x = static_cast<double>(empties - config.min_empties) / (config.max_empties - config.min_empties);
    return config.weight + std::clamp(x, 0.0, 1.0) * (config.weight_high - config.weight);
}

namespace {

// The samples with config.min_empties..max_empties empties (their indices).
std::vector<std::size_t> select_samples(const std::vector<Sample>& samples, const SearchTargetConfig& config) {
    std::vector<std::size_t> selected;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const int empties = 64 - popcount(samples[i].player | samples[i].opponent);
        if (empties >= config.min_empties && empties <= config.max_empties) selected.push_back(i);
    }
    return selected;
}

// The scores the checkpoint holds for the selected samples (the others nullopt) and its usable size.
Expected<std::uint64_t> scores_from_checkpoint(const std::vector<Sample>& samples,
                                               const std::vector<std::size_t>& selected,
                                               const SearchTargetConfig& config, std::vector<Score>& scores) {
    if (config.checkpoint_path.empty()) return std::uint64_t{0};
    auto read = read_checkpoint(config.checkpoint_path, config.tag);
    if (!read) return read.error();
    std::sort(read->records.begin(), read->records.end(), by_position);
    for (std::size_t k = 0; k < selected.size(); ++k) scores[k] = find_score(read->records, samples[selected[k]]);
    return read->usable_bytes;
}

// Each scored sample's target becomes the blend of its search score and its old target; returns the mean
// |score - old target| over them and counts the declined ones.
double blend_targets(std::vector<Sample>& samples, const std::vector<std::size_t>& selected,
                     const std::vector<Score>& scores, const SearchTargetConfig& config, SearchTargetReport& report) {
    double change = 0;
    for (std::size_t k = 0; k < selected.size(); ++k) {
        auto& s = samples[selected[k]];
        if (!scores[k]) {
            ++report.declined;
            continue;
        }
        change += std::abs(*scores[k] - s.target);
        const double w = search_weight_at(config, 64 - popcount(s.player | s.opponent));
        s.target = static_cast<float>(w * *scores[k] + (1 - w) * s.target);
    }
    const std::size_t scored = selected.size() - report.declined;
    return scored ? change / static_cast<double>(scored) : 0;
}

}  // namespace

Expected<SearchTargetReport> apply_search_targets(std::vector<Sample>& samples, const SearchTargetConfig& config,
                                                  const SearchTargetProgress& progress) {
    if (!config.scorer_factory) return make_error("search targets: no scorer");
    if (!(config.weight >= 0 && config.weight <= 1)) return make_error("search targets: weight outside [0, 1]");
    if (!(config.weight_high < 0 || config.weight_high <= 1))  // NaN fails both
        return make_error("search targets: weight at the high end outside [0, 1]");
    SearchTargetReport report;
    const std::vector<std::size_t> selected = select_samples(samples, config);
    report.selected = selected.size();

    // Scores found in the checkpoint; the others are searched.
    std::vector<Score> scores(selected.size());
    const auto usable_bytes = scores_from_checkpoint(samples, selected, config, scores);
    if (!usable_bytes) return usable_bytes.error();
    std::vector<std::size_t> todo;  // indices into `selected`
    for (std::size_t k = 0; k < selected.size(); ++k) {
        if (scores[k]) {
            ++report.from_checkpoint;
        } else {
            todo.push_back(k);
        }
    }
    std::optional<CheckpointWriter> writer;
    if (!config.checkpoint_path.empty() && !todo.empty()) {
        auto opened = CheckpointWriter::open(config.checkpoint_path, config.tag, *usable_bytes);
        if (!opened) return opened.error();
        writer.emplace(std::move(*opened));
    }
    std::size_t done = report.from_checkpoint;
    const bool written =
        search_missing(samples, selected, todo, scores, config, writer ? &*writer : nullptr, [&](std::size_t n) {
            done += n;
            if (progress) progress(done, selected.size());
        });
    if (!written) return make_error("search checkpoint " + config.checkpoint_path + ": write error");
    report.searched = todo.size();
    report.mean_abs_change = blend_targets(samples, selected, scores, config, report);
    return report;
}

}  // namespace reversi::eval
