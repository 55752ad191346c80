#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (the repository's .clang-format) makes of it.
# Generated files opt out with "// clang-format off". Fix with:
#   git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format is not installed (apt-get install clang-format)" >&2
  exit 1
fi
bad=$(git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning:.*/\1/p' | sort -u)
if [ -n "$bad" ]; then
  echo "check-format: these files are not formatted as .clang-format says:" >&2
  echo "$bad" | sed 's/^/  /' >&2
  echo "fix: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i" >&2
  exit 1
fi
echo "check-format: $(git ls-files '*.cpp' '*.hpp' | wc -l) files formatted" >&2
