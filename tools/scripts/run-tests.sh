#!/usr/bin/env bash
# Installs what is missing, builds the Release and the ASan+UBSan configurations and runs the whole test
# suite of each through ctest, then a short libFuzzer run of the protocol parsers (clang) and the threaded
# tests (protocol, server, the worker pool, the searcher's and the solver's two-thread tests, the book's
# parallel leaf searches) under
# ThreadSanitizer (REVERSI_TSAN=0 skips that stage). Before building it checks the formatting
# (check-format.sh), that no file includes a higher layer (check-layers.sh) and the Kubernetes manifests
# offline (check-deploy.sh); after the Release tests,
# that every test case is a ctest test (check-test-count.sh), that bench's node total is
# tools/bench-nodes (check-bench.sh) and that the searches' table prefetches were not compiled away
# (check-prefetch.sh).
# Usage: tools/scripts/run-tests.sh [stage ...]   stages: release asan fuzz tsan (default: all four)
# Compile time is most of CI's time: the ASan preset compiles the front ends, the tools and the tests that
# drive child processes at -O0 and only the engine and the computing test binaries at -O1 (REVERSI_HOT_OPT),
# every sanitizer preset with -g1 (line tables, enough for the sanitizers' stack traces); the front ends,
# the tools and, in the sanitizer presets, the engine compile in unity batches of 8 files, each test area
# as one unity file. Under a sanitizer the tests that compare with a reference on many positions take
# fewer (tests/support/sanitized.hpp). Fresh-clone timings are in docs/protocol.md ("CI").
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/install-deps.sh
bash tools/scripts/check-format.sh
bash tools/scripts/check-layers.sh
bash tools/scripts/check-deploy.sh
stages=("$@")
if [ ${#stages[@]} -eq 0 ]; then
  stages=(release asan fuzz)
  [ "${REVERSI_TSAN:-1}" = 0 ] || stages+=(tsan)
fi
start=$(date +%s)
for stage in "${stages[@]}"; do
  t0=$(date +%s)
  case "$stage" in
    fuzz)
      echo "=== fuzz: configure and build (clang, libFuzzer)" >&2
      cmake --preset fuzz >/dev/null
      cmake --build --preset fuzz
      corpus=$(mktemp -d)
      trap 'rm -rf "$corpus"' EXIT
      echo "=== fuzz: 100000 runs of reversi-fuzz-parsers" >&2
      build/fuzz/protocol/reversi-fuzz-parsers -runs=100000 -max_len=4096 -seed=1 "$corpus" protocol/fuzz/corpus \
        2>&1 | tail -n 3
      ;;
    tsan)
      echo "=== tsan: configure and build the threaded tests" >&2
      cmake --preset tsan >/dev/null
      cmake --build --preset tsan --target reversi-engine tests_protocol tests_server tests_endgame tests_eval \
        tests_core tests_search tests_book
      echo "=== tsan: tests (protocol, server, the worker pool, the searcher's and the endgame solver's two-thread" \
        "tests, the trainer's build threads, the book's parallel leaf searches)" >&2
      ctest --preset tsan -R '^(protocol|server|core):|^(search|endgame):.*(two threads|YBWC|worker pool)|^eval:training set: two build threads|^book:.*parallel'
      ;;
    *)
      echo "=== $stage: configure and build" >&2
      cmake --preset "$stage" >/dev/null
      # ASan: the test binaries and the tools they run (reversi-test-suite, tests/CMakeLists.txt); Release: all.
      targets=()
      [ "$stage" != asan ] || targets=(--target reversi-test-suite)
      cmake --build --preset "$stage" "${targets[@]}"
      echo "=== $stage: tests" >&2
      ctest --preset "$stage"
      bash tools/scripts/check-test-count.sh "build/$stage"
      [ "$stage" != release ] || bash tools/scripts/check-bench.sh "build/$stage"
      [ "$stage" != release ] || bash tools/scripts/check-prefetch.sh "build/$stage"
      ;;
  esac
  echo "=== $stage: $(( $(date +%s) - t0 )) s" >&2
done
echo "=== all stages: $(( $(date +%s) - start )) s" >&2
