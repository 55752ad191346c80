#pragma once
// Small string checks the protocol tests apply to an engine's lines, in one place: each test file had its
// own copy, and the copies kept the files out of their area's unity build (tests/CMakeLists.txt).
#include <algorithm>
#include <string>
#include <vector>

namespace reversi::testing {

inline bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// How many of `lines` start with `prefix`.
inline int count_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
    return static_cast<int>(
        std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return starts_with(l, prefix); }));
}

}  // namespace reversi::testing
