#!/usr/bin/env bash
# Plays the engine against NTest (an NBoard engine with its trained evaluation) from paired XOT openings
# and prints the match summary (Elo, pentanomial interval) with both engines' mean ms/move measured from
# the game records. It does not build NTest: give the folder where `ntest` and NTest's resource files
# (parameters.txt, coefficients/, ...) lie together (docs/eval.md, "Strength against NTest", says how).
#
# Usage: tools/scripts/ntest-match.sh NTEST_DIR [GAMES] [OUR_LIMIT] [NTEST_DEPTH] [OUT_PREFIX] [-- EXTRA...]
#   GAMES        games, an even number: each opening twice, colours swapped (default 400)
#   OUR_LIMIT    the engine's limit as reversi-match keys (default "movetime=30 option.MoveOverhead=5")
#   NTEST_DEPTH  NTest's `set depth` (default 14)
#   OUT_PREFIX   reversi-match --out (default /tmp/ntest-match); --resume continues an interrupted match
#   EXTRA        further reversi-match arguments (e.g. --resume, --concurrency 2)
# Environment: ENGINE (default build/release/protocol/reversi-engine), OPENINGS (default
# ../shared/data/openings/xot/openingssmall.txt), NICE (default 0).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 1 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
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
openings=${OPENINGS:-../shared/data/openings/xot/openingssmall.txt}
[ -x "$ntest_dir/ntest" ] || { echo "ntest-match: $ntest_dir/ntest is missing or not executable" >&2; exit 2; }
[ -x "$engine" ] || { echo "ntest-match: $engine is missing: build it first (cmake --build --preset release)" >&2; exit 2; }
# shellcheck disable=SC2086  # OUR_LIMIT is a list of keys
nice -n "${NICE:-0}" build/release/tools/reversi-match \
  --engine name=reversi cmd="$engine" $ours \
  --engine name=ntest cmd="$ntest_dir/ntest x" dir="$ntest_dir" proto=nboard depth="$depth" \
  --openings "$openings" --games "$games" --concurrency 1 --progress off --out "$out" "$@"
python3 tools/scripts/ggf-times.py "$out.ggf"
