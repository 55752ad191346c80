#!/usr/bin/env bash
# Installs what is missing, builds the Release and the ASan+UBSan configurations, and runs the whole
# test suite of each through ctest. Usage: tools/scripts/run-tests.sh [preset ...]  (default: release asan)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/install-deps.sh
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(release asan)
for preset in "${presets[@]}"; do
  echo "=== $preset: configure and build" >&2
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  echo "=== $preset: tests" >&2
  ctest --preset "$preset"
done
