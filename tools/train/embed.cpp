// reversi-train embed: checks a weights file and writes the C++ source that embeds it.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "engine/eval/weights/embed_source.hpp"
#include "engine/eval/weights/weights_file.hpp"
#include "tools/train/commands.hpp"

namespace reversi::train {

int run_embed(const cli::ParsedArgs& args) {
    const std::string in = args.get("in", "");
    const std::string out = args.get("out", "");
    if (in.empty() || out.empty()) {
        std::fprintf(stderr, "reversi-train: embed needs --in FILE and --out FILE.cpp\n");
        return 2;
    }
    auto read = eval::read_weights_bytes(in);
    if (!read) {
        std::fprintf(stderr, "reversi-train: embed: %s\n", read.error().message.c_str());
        return 1;
    }
    const std::vector<std::uint8_t> bytes = std::move(*read);
    auto set = eval::decode_weights(bytes, in);
    if (!set) {
        std::fprintf(stderr, "reversi-train: refusing to embed: %s\n", set.error().message.c_str());
        return 1;
    }
    if (set->trained_mask != eval::kAllPhasesMask) {
        std::fprintf(stderr, "reversi-train: refusing to embed %s: not every phase is trained\n", in.c_str());
        return 1;
    }
    std::ofstream cpp(out, std::ios::trunc);
    cpp << eval::embed_source(bytes, std::filesystem::path(in).filename().string());
    if (!cpp.flush()) {
        std::fprintf(stderr, "reversi-train: cannot write %s\n", out.c_str());
        return 1;
    }
    std::printf("embedded %zu bytes of %s into %s\n", bytes.size(), in.c_str(), out.c_str());
    return 0;
}

}  // namespace reversi::train
