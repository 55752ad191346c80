#!/usr/bin/env bash
# Fails when a table prefetch of the searches is missing from the optimised engine. GCC 12 deletes a call
# to a function whose only effect is __builtin_prefetch (its mod/ref analysis sees no side effect): the
# solver's children's prefetch, written as a lambda in 16245c1, compiled to nothing from 2026-11-30 to
# 2026-12-07 and no test or node count could see it (docs/endgame.md, "The children's prefetch restored").
# The prefetch helpers are now always_inline; this script checks the machine code itself: every function
# below must hold at least one prefetch instruction (x86 `prefetch*`; on another machine, `prfm` or none).
# Usage: tools/scripts/check-prefetch.sh BUILD_DIR   (or a binary: check-prefetch.sh FILE)
set -euo pipefail
cd "$(dirname "$0")/../.."
arg=${1:?usage: check-prefetch.sh BUILD_DIR|BINARY}
binary=$arg
[ -d "$arg" ] && binary="$arg/protocol/reversi-engine"
[ -x "$binary" ] || { echo "check-prefetch: $binary is missing: build it first" >&2; exit 2; }
command -v objdump >/dev/null || { echo "check-prefetch: objdump (binutils) is not installed" >&2; exit 2; }
case "$(uname -m)" in
  x86_64) pattern='prefetch' ;;
  aarch64) pattern='prfm' ;;
  *) echo "check-prefetch: no prefetch instruction known for $(uname -m); not checked" >&2; exit 0 ;;
esac
# Prefetch instructions per function (demangled names, one line each: COUNT NAME).
counts=$(objdump -d --no-show-raw-insn -C "$binary" | awk -v pat="$pattern" '
  /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
  $0 ~ "\t" pat { n[fn]++ }
  END { for (f in n) print n[f], f }')
# The searches' functions that prefetch table buckets (their names as the start of the demangled symbol).
wanted=(
  'int reversi::endgame::SearchWorker::hashed<false>('
  'int reversi::endgame::SearchWorker::hashed<true>('
  'reversi::OthelloOrder::score_normal('
  'reversi::OthelloOrder::score_evaluated('
)
missing=0
for name in "${wanted[@]}"; do
  n=$(awk -v name="$name" 'index(substr($0, index($0, " ") + 1), name) == 1 { s += $1 } END { print s + 0 }' \
    <<<"$counts")
  if [ "$n" -eq 0 ]; then
    echo "check-prefetch: no prefetch instruction in $name...) of $binary" >&2
    missing=1
  fi
done
[ "$missing" = 0 ] || { echo "check-prefetch: a table prefetch was compiled away (see this script's header)" >&2; exit 1; }
echo "check-prefetch: the solver's and the midgame's table prefetches are in $binary" >&2
