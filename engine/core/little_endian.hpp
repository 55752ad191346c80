#pragma once
// Little-endian integers in byte buffers, for the project's binary file formats (sample caches,
// search checkpoints): the bytes on disk do not depend on the machine.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace reversi {

// Appends v as sizeof(T) little-endian bytes.
template <class T>
void put_le(std::vector<std::uint8_t>& out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i)));
}

// Reads sizeof(T) little-endian bytes at p.
template <class T>
[[nodiscard]] T get_le(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return static_cast<T>(v);
}

}  // namespace reversi
