#pragma once
// Whether this test binary runs under a sanitizer (AddressSanitizer, ThreadSanitizer). The sanitizers look
// for memory errors, undefined behaviour and races on the paths a test walks, which a few positions
// already walk, and they make the engine 5-30 times slower. So the tests that compare the engine with a
// reference on many positions take fewer positions there (sanitized_count); the Release stage runs the
// full counts. CI's time budget is in docs/protocol.md ("CI").
namespace reversi::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// `full` in an unsanitized build, `sanitized` under a sanitizer.
constexpr int sanitized_count(int full, int sanitized) { return kSanitized ? sanitized : full; }

}  // namespace reversi::testing
