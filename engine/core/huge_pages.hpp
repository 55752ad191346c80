#pragma once
// Memory for the large tables (the transposition tables): aligned to 2 MiB and, on Linux, advised as
// transparent huge pages (madvise MADV_HUGEPAGE; most kernels grant them only when asked). A table of
// hundreds of MiB probed at random misses the TLB at almost every probe with 4 KiB pages; with 2 MiB
// pages the whole table fits in the TLB. Where the advice is refused the memory is ordinary pages.
#include <cstddef>
#include <memory>
#include <type_traits>

namespace reversi {

// `bytes` rounded up to whole 2 MiB pages, 2 MiB aligned; nullptr when the memory is not available.
[[nodiscard]] void* allocate_huge(std::size_t bytes) noexcept;
void free_huge(void* p) noexcept;

struct HugeFree {
    void operator()(void* p) const noexcept { free_huge(p); }
};

// An array of n value-initialised T in huge-page memory. T must be trivially destructible: the deleter
// only frees the memory.
template <class T>
using HugeArray = std::unique_ptr<T[], HugeFree>;

template <class T>
[[nodiscard]] HugeArray<T> make_huge_array(std::size_t n) noexcept {
    static_assert(std::is_trivially_destructible_v<T>, "the deleter does not run destructors");
    void* p = allocate_huge(n * sizeof(T));
    if (!p) return HugeArray<T>(nullptr);
    T* first = static_cast<T*>(p);
    std::uninitialized_value_construct_n(first, n);
    return HugeArray<T>(first);
}

}  // namespace reversi
