#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/core/huge_pages.hpp"

namespace reversi {

TEST_CASE("huge pages: arrays are 2 MiB aligned and value-initialised, any size") {
    constexpr std::uintptr_t kAlign = std::uintptr_t{2} << 20;
    for (const std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{1} << 18, (std::size_t{1} << 18) + 7}) {
        HugeArray<std::uint64_t> a = make_huge_array<std::uint64_t>(n);
        REQUIRE(a);
        CHECK(reinterpret_cast<std::uintptr_t>(a.get()) % kAlign == 0);
        bool zero = true;
        for (std::size_t i = 0; i < n; ++i) zero = zero && a[i] == 0;
        CHECK(zero);
        a[n - 1] = 42;  // the last element is writable (ASan checks the bounds of the allocation)
        CHECK(a[n - 1] == 42);
    }
}

TEST_CASE("huge pages: a size that overflows gives nullptr, not a crash") {
    CHECK(allocate_huge(std::numeric_limits<std::size_t>::max()) == nullptr);
    CHECK(allocate_huge(std::numeric_limits<std::size_t>::max() - 100) == nullptr);
    void* p = allocate_huge(0);  // a zero size is one page, freed like any other
    CHECK(p != nullptr);
    free_huge(p);
}

TEST_CASE("huge pages: the allocator puts large vectors in 2 MiB pages and small ones on the heap") {
    constexpr std::uintptr_t kAlign = std::uintptr_t{2} << 20;
    using Vec = std::vector<std::int16_t, HugePageAllocator<std::int16_t>>;
    Vec large(kHugeAllocatorMinBytes / sizeof(std::int16_t) + 5, 0);
    CHECK(reinterpret_cast<std::uintptr_t>(large.data()) % kAlign == 0);
    large.back() = -7;
    Vec copy = large;  // copies, resizes and comparisons work as with std::allocator
    CHECK(copy == large);
    copy.resize(3);  // shrinking keeps the allocation; shrink_to_fit moves it to the heap
    copy.shrink_to_fit();
    CHECK(copy.size() == 3);
    Vec small(10, 1);
    small.push_back(2);
    CHECK(small.back() == 2);
    CHECK(HugePageAllocator<int>{} == HugePageAllocator<std::int16_t>{});
}

}  // namespace reversi
