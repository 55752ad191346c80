#pragma once
// Memory for the large tables read at random (the transposition tables, the pattern weights): aligned
// to 2 MiB and, on Linux, advised as transparent huge pages (madvise MADV_HUGEPAGE; most kernels grant
// them only when asked). A table of hundreds of MiB probed at random misses the TLB at almost every probe
// with 4 KiB pages; with 2 MiB pages the whole table fits in the TLB. Where the advice is refused the
// memory is ordinary pages.
#include <cstddef>
#include <memory>
#include <new>
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

// A std::allocator for the large arrays read at random in the search (the evaluation's weights): an
// allocation of kHugeAllocatorMinBytes or more goes to allocate_huge, a smaller one to operator new (a
// vector of a few entries does not take a 2 MiB page). Stateless: any two compare equal.
inline constexpr std::size_t kHugeAllocatorMinBytes = std::size_t{1} << 20;

template <class T>
struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() noexcept = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    [[nodiscard]] T* allocate(std::size_t n) {
        if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugeAllocatorMinBytes)
            return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
        void* p = allocate_huge(bytes);
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kHugeAllocatorMinBytes) {
            ::operator delete (p, std::align_val_t{alignof(T)});
        } else {
            free_huge(p);
        }
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

}  // namespace reversi
