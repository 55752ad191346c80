#!/usr/bin/env bash
# Plays the engine against NTest (an NBoard engine with its trained evaluation) from paired XOT openings
# and prints the match summary (Elo, pentanomial interval) with both engines' mean ms/move measured from
# the game records. It does not build NTest: give the folder where `ntest` and NTest's resource files
# (parameters.txt, coefficients/, ...) lie together (docs/eval.md, "Strength against NTest", says how).
#
# Usage: tools/scripts/ntest-match.sh NTEST_DIR [GAMES] [OUR_LIMIT] [NTEST_DEPTH] [OUT_PREFIX] [-- EXTRA...]
#   GAMES        games, an even number: each opening twice, colours swapped (default 400)
#   OUR_LIMIT    the engine's limit as reversi-match keys (default "movetime=30 option.MoveOverhead=5"),
#                or "equal": a short calibration match first (CAL_GAMES games, default 40, ours at
#                tc=1+0) measures NTest's ms/move on this machine now, and ours then plays sudden death
#                with 30.8 times it (the engine spends its clock over about 30.8 moves a game)
#   NTEST_DEPTH  NTest's `set depth` (default 14)
#   OUT_PREFIX   reversi-match --out (default /tmp/ntest-match); --resume continues an interrupted match
#                (with "equal", at the limit the calibration chose: OUT_PREFIX.limit)
#   EXTRA        further reversi-match arguments (e.g. --resume, --concurrency 2)
# Environment: ENGINE (default build/release/protocol/reversi-engine), MATCH (default
# build/release/tools/reversi-match), OPENINGS (default ../shared/data/openings/xot/openingssmall.txt),
# NICE (default 0), CAL_GAMES (default 40).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 1 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 2
fi
ntest_dir=$(cd "$1" && pwd)
games=${2:-400}
ours=${3:-"movetime=30 option.MoveOverhead=5"}
depth=${4:-14}
out=${5:-/tmp/ntest-match}
shift $(( $# < 5 ? $# : 5 ))
[ "${1:-}" = "--" ] && shift
engine=${ENGINE:-build/release/protocol/reversi-engine}
case "$engine" in /*) ;; *) engine="$(pwd)/$engine" ;; esac
match=${MATCH:-build/release/tools/reversi-match}
openings=${OPENINGS:-../shared/data/openings/xot/openingssmall.txt}
[ -x "$ntest_dir/ntest" ] || { echo "ntest-match: $ntest_dir/ntest is missing or not executable" >&2; exit 2; }
[ -x "$engine" ] || { echo "ntest-match: $engine is missing: build it first (cmake --build --preset release)" >&2; exit 2; }
[ -x "$match" ] || { echo "ntest-match: $match is missing: build it first (cmake --build --preset release)" >&2; exit 2; }
# The engine spreads a sudden-death clock over about this many of its moves (docs/eval.md, "Strength
# against NTest"): the equal-time clock is this many times NTest's mean ms/move.
moves_per_clock=30.8
# Mean ms/move of `name` in ggf-times.py's output (its line "name: N timed moves, mean M ms/move, ...").
mean_ms() { sed -n "s/^$2: .* mean \([0-9.]*\) ms\/move.*/\1/p" <<<"$1"; }
play() {  # play OUT_PREFIX GAMES OUR_LIMIT [EXTRA...]
  local prefix=$1 n=$2 limit=$3
  shift 3
  # shellcheck disable=SC2086  # the limit is a list of keys
  nice -n "${NICE:-0}" "$match" \
    --engine name=reversi cmd="$engine" $limit \
    --engine name=ntest cmd="$ntest_dir/ntest x" dir="$ntest_dir" proto=nboard depth="$depth" \
    --openings "$openings" --games "$n" --concurrency 1 --progress off --out "$prefix" "$@"
}
resume=0
for arg in "$@"; do [ "$arg" = --resume ] && resume=1; done
if [ "$ours" = equal ] && [ $resume = 1 ] && [ -s "$out.limit" ]; then
  ours=$(cat "$out.limit")  # a resumed match keeps its calibrated limit
  echo "ntest-match: resuming with ours $ours ($out.limit)" >&2
elif [ "$ours" = equal ]; then
  concurrency=()  # the calibration runs as loaded as the match: the same --concurrency
  for ((i = 1; i <= $#; i++)); do
    [ "${!i}" = --concurrency ] && { j=$((i + 1)); concurrency=(--concurrency "${!j}"); }
  done
  rm -f "$out-cal".*
  echo "ntest-match: calibrating, ${CAL_GAMES:-40} games (ours tc=1+0) -> $out-cal" >&2
  play "$out-cal" "${CAL_GAMES:-40}" "tc=1+0" "${concurrency[@]}" >/dev/null
  ntest_ms=$(mean_ms "$(python3 tools/scripts/ggf-times.py "$out-cal.ggf")" ntest)
  [ -n "$ntest_ms" ] || { echo "ntest-match: no NTest move times in $out-cal.ggf" >&2; exit 1; }
  ours="tc=$(python3 -c "print(f'{max($ntest_ms * $moves_per_clock / 1000, 0.05):.2f}')")+0"
  echo "ntest-match: NTest ${ntest_ms} ms/move at depth $depth: ours $ours" >&2
  echo "$ours" >"$out.limit"
fi
play "$out" "$games" "$ours" "$@"
times=$(python3 tools/scripts/ggf-times.py "$out.ggf")
echo "$times"
ours_ms=$(mean_ms "$times" reversi)
ntest_ms=$(mean_ms "$times" ntest)
if [ -n "$ours_ms" ] && [ -n "$ntest_ms" ]; then
  # NTest's moves can all be recorded as 0 ms (the records' resolution is 1 ms): no ratio then.
  python3 -c "o, n = $ours_ms, $ntest_ms
print('time ratio (ours / NTest) undefined: NTest took 0 ms a move' if n == 0 else f'time ratio (ours / NTest) {o / n:.2f}' + ('' if 1 / 1.2 <= o / n <= 1.2 else ': not equal time (outside 0.83-1.2)'))"
fi
