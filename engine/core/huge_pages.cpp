#include "engine/core/huge_pages.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace reversi {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}

void* allocate_huge(std::size_t bytes) noexcept {
    if (bytes == 0) bytes = 1;
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    if (rounded < bytes) return nullptr;  // overflow
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (!p) return nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    (void)madvise(p, rounded, MADV_HUGEPAGE);  // advice only: refused, the pages are ordinary ones
#endif
    return p;
}

void free_huge(void* p) noexcept { std::free(p); }

}  // namespace reversi
