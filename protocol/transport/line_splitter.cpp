#include "protocol/transport/line_splitter.hpp"

namespace reversi::transport {

namespace {
std::string_view strip_cr(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}
}  // namespace

void LineSplitter::feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line,
                        const std::function<void()>& on_overlong) {
    while (!bytes.empty()) {
        const std::size_t nl = bytes.find('\n');
        const std::string_view chunk = bytes.substr(0, nl);
        if (discarding_) {
            if (nl == std::string_view::npos) return;
            discarding_ = false;
        } else if (pending_.size() + chunk.size() > max_line_) {
            pending_.clear();
            on_overlong();
            if (nl == std::string_view::npos) {
                discarding_ = true;
                return;
            }
        } else if (nl == std::string_view::npos) {
            pending_.append(chunk);
            return;
        } else if (pending_.empty()) {
            on_line(strip_cr(chunk));
        } else {
            pending_.append(chunk);
            const std::string line = std::move(pending_);
            pending_.clear();
            on_line(strip_cr(line));
        }
        bytes.remove_prefix(nl + 1);
    }
}

void LineSplitter::finish(const std::function<void(std::string_view)>& on_line) {
    if (!discarding_ && !pending_.empty()) {
        const std::string line = std::move(pending_);
        pending_.clear();
        on_line(strip_cr(line));
    }
}

}  // namespace reversi::transport
