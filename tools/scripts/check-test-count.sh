#!/usr/bin/env bash
# Every doctest test case must be a ctest test (tests labelled "script" aside). doctest_discover_tests splits a test name at ';' (a CMake
# list separator), so a case named "a; b" silently never ran. This compares the two counts for one build.
# Usage: tools/scripts/check-test-count.sh BUILD_DIR
set -euo pipefail
dir=${1:?usage: check-test-count.sh BUILD_DIR}
cases=0
for t in "$dir"/tests/tests_*; do
  [ -x "$t" ] || continue
  n=$("$t" --count 2>/dev/null | sed -n 's/.*filters: \([0-9]*\).*/\1/p')
  cases=$((cases + n))
done
registered=$(ctest --test-dir "$dir" -N | sed -n 's/^Total Tests: \([0-9]*\)$/\1/p')
# Tests that are scripts, not doctest cases (label "script": the browser test) are not counted.
scripts=$(ctest --test-dir "$dir" -N -L '^script$' | sed -n 's/^Total Tests: \([0-9]*\)$/\1/p')
registered=$((registered - scripts))
if [ "$cases" != "$registered" ]; then
  echo "check-test-count: $cases doctest test cases but $registered ctest tests in $dir;" \
       "a test name with ';' is split by doctest_discover_tests and never runs" >&2
  exit 1
fi
echo "check-test-count: $registered test cases, all registered with ctest" >&2
