#pragma once
// Splits a byte stream into lines (LF or CRLF) with a length cap: a line longer than the cap is reported
// once and skipped up to its newline. Used by the stdio transport; small enough to fuzz and unit-test.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace reversi::transport {

class LineSplitter {
public:
    explicit LineSplitter(std::size_t max_line) : max_line_(max_line) {}
    // Feeds bytes; calls on_line for each complete line, on_overlong once for each line over the cap.
    void feed(std::string_view bytes, const std::function<void(std::string_view)>& on_line,
              const std::function<void()>& on_overlong);
    // End of input: a last unterminated line is delivered.
    void finish(const std::function<void(std::string_view)>& on_line);

private:
    std::size_t max_line_;
    std::string pending_;
    bool discarding_ = false;
};

}  // namespace reversi::transport
