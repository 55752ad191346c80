#!/usr/bin/env bash
# Plays the engine against NTest (an NBoard engine with its trained evaluation) from paired XOT openings
# and prints the match summary (Elo, pentanomial interval) with both engines' mean ms/move measured from
# the game records. It does not build NTest: give the folder where `ntest` and NTest's resource files
# (parameters.txt, coefficients/, ...) lie together (docs/eval.md, "Strength against NTest", says how).
#
# Usage: tools/scripts/ntest-match.sh NTEST_DIR [GAMES] [OUR_LIMIT] [NTEST_DEPTH] [OUT_PREFIX] [-- EXTRA...]
#   GAMES        games, an even number: each opening twice, colours swapped (default 400)
#   OUR_LIMIT    the engine's limit as reversi-match keys (default "movetime=30 option.MoveOverhead=5"),
#                or "equal": short calibration matches first (CAL_ROUNDS of them, default 2, of CAL_GAMES
#                games each, default 40; ours at tc=1+0 in the first, then at the limit the rounds before
#                chose) measure NTest's ms/move on this machine now, over all the rounds' moves, and ours
#                then plays sudden death with 30.8 times it (the engine spends its clock over about 30.8
#                moves a game). NTest's mean over 40 games varies by 20 % (38.7 and 46.9 ms in two rounds,
#                44.0 in the 400 games after them): with one round ours had 0.82-1.18 times NTest's time.
#                Round R plays openings drawn at random with seed SEED * 1000 + R (SEED: the match's
#                --seed, default 1): NTest's ms/move differs by about 60 % from game to game at depth 18,
#                so a fixed set of openings would err the same way in every run
#                With PARTS=K (default 1) the match is played in K parts of about GAMES/K games, each on
#                the next openings of the same order (reversi-match --opening-offset: together the openings
#                of one match of GAMES games); part 1 plays at the calibrated limit, each later part at the
#                limit before it times NTest's mean ms/move over the parts so far over ours in the part
#                before: the clock follows NTest's time in the match itself, which the calibration can
#                miss (by 14-16 % in two runs at depth 18). Files OUT_PREFIX-pK.*, their games together in
#                OUT_PREFIX.ggf; the summary pools the parts (tools/scripts/elo-pool.py)
#   NTEST_DEPTH  NTest's `set depth` (default 14)
#   OUT_PREFIX   reversi-match --out (default /tmp/ntest-match); --resume continues an interrupted match
#                (with "equal", at the limit the calibration chose: OUT_PREFIX.limit; with PARTS, each
#                part at its own, OUT_PREFIX-pK.limit)
#   EXTRA        further reversi-match arguments (e.g. --resume, --concurrency 2)
# Environment: ENGINE (default build/release/protocol/reversi-engine), MATCH (default
# build/release/tools/reversi-match), OPENINGS (default ../shared/data/openings/xot/openingssmall.txt),
# NICE (default 0), CAL_GAMES (default 40), CAL_ROUNDS (default 2), PARTS (default 1; with "equal" and
# without EVAL_FILES only), EVAL_FILES (NAME=WEIGHTS,...: a gauntlet, NTest against one engine per weights
# file, ENGINE with option.EvalFile=WEIGHTS at OUR_LIMIT, GAMES games each, named NAME; the calibration
# plays ENGINE as it is). Relative paths are taken from the project root.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 1 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
  sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//'
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
# The engines that meet NTest: "reversi" (ENGINE as it is), or one per EVAL_FILES entry.
names=(reversi)
if [ -n "${EVAL_FILES:-}" ]; then
  names=()
  files=()
  IFS=, read -ra entries <<<"$EVAL_FILES"
  for entry in "${entries[@]}"; do
    name=${entry%%=*}
    file=${entry#*=}
    [[ "$entry" == *=* && "$name" =~ ^[A-Za-z0-9_-]+$ && "$name" != ntest ]] ||
      { echo "ntest-match: EVAL_FILES: '$entry' is not NAME=WEIGHTS (NAME: letters, digits, _ or -; not ntest)" >&2; exit 2; }
    for seen in "${names[@]}"; do
      [ "$seen" != "$name" ] || { echo "ntest-match: EVAL_FILES: the name '$name' is given twice" >&2; exit 2; }
    done
    if [ ! -f "$file" ] || [ ! -r "$file" ]; then
      echo "ntest-match: EVAL_FILES: $file (for $name) is not a readable file" >&2
      exit 2
    fi
    names+=("$name")
    files+=("$(realpath "$file")")
  done
  [ ${#names[@]} -gt 0 ] || { echo "ntest-match: EVAL_FILES: no NAME=WEIGHTS entry in '$EVAL_FILES'" >&2; exit 2; }
fi
parts=${PARTS:-1}
[[ "$parts" =~ ^[1-9][0-9]{0,5}$ ]] || { echo "ntest-match: PARTS must be a positive integer, not '$parts'" >&2; exit 2; }
if [ "$parts" -gt 1 ]; then
  [ "$ours" = equal ] || { echo "ntest-match: PARTS needs the 'equal' limit (it adjusts ours between parts)" >&2; exit 2; }
  [ -z "${EVAL_FILES:-}" ] || { echo "ntest-match: PARTS and EVAL_FILES cannot go together" >&2; exit 2; }
  [ $((games / 2)) -ge "$parts" ] || { echo "ntest-match: $games games cannot make $parts parts of a pair or more" >&2; exit 2; }
fi
play() {  # play OUT_PREFIX GAMES OUR_LIMIT ENGINES [EXTRA...]: ENGINES "plain" (ENGINE as it is) or "each"
  local prefix=$1 n=$2 limit=$3 which=$4
  shift 4
  local ntest=(--engine name=ntest cmd="$ntest_dir/ntest x" dir="$ntest_dir" proto=nboard depth="$depth")
  local engines=() i
  if [ "$which" = plain ] || [ -z "${EVAL_FILES:-}" ]; then
    # shellcheck disable=SC2206  # the limit is a list of keys
    engines=(--engine name=reversi cmd="$engine" $limit "${ntest[@]}")
  else
    # NTest first: a gauntlet plays the first engine against each other one.
    engines=("${ntest[@]}" --tournament gauntlet)
    for i in "${!names[@]}"; do
      # shellcheck disable=SC2206  # the limit is a list of keys
      engines+=(--engine name="${names[$i]}" cmd="$engine" $limit option.EvalFile="${files[$i]}")
    done
  fi
  nice -n "${NICE:-0}" "$match" "${engines[@]}" \
    --openings "$openings" --games "$n" --concurrency 1 --progress off --out "$prefix" "$@"
}
resume=0
for arg in "$@"; do [ "$arg" = --resume ] && resume=1; done
if [ "$ours" = equal ] && [ $resume = 1 ] && [ -s "$out.limit" ]; then
  ours=$(cat "$out.limit")  # a resumed match keeps its calibrated limit
  echo "ntest-match: resuming with ours $ours ($out.limit)" >&2
elif [ "$ours" = equal ]; then
  concurrency=()  # the calibration runs as loaded as the match: the same --concurrency
  seed=1           # and draws random openings from the match's --seed (reversi-match's default 1)
  for ((i = 1; i <= $#; i++)); do
    [ "${!i}" = --concurrency ] && { j=$((i + 1)); concurrency=(--concurrency "${!j}"); }
    [ "${!i}" = --seed ] && { j=$((i + 1)); seed=${!j}; }
  done
  [[ "$seed" =~ ^[0-9]{1,12}$ ]] || { echo "ntest-match: --seed must be a number, not '$seed'" >&2; exit 2; }
  rounds=${CAL_ROUNDS:-2}
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ntest-match: CAL_ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }
  rm -f "$out"-cal.* "$out"-cal[0-9]*.*
  ours="tc=1+0"
  cal_files=()
  for ((round = 1; round <= rounds; round++)); do
    cal=$out-cal
    [ "$round" = 1 ] || cal=$out-cal$round
    echo "ntest-match: calibrating, round $round of $rounds, ${CAL_GAMES:-40} games (ours $ours) -> $cal" >&2
    play "$cal" "${CAL_GAMES:-40}" "$ours" plain "${concurrency[@]}" \
      --opening-order random --seed $((10#$seed * 1000 + round)) >/dev/null
    cal_files+=("$cal.ggf")
    ntest_ms=$(mean_ms "$(python3 tools/scripts/ggf-times.py "${cal_files[@]}")" ntest)
    [ -n "$ntest_ms" ] || { echo "ntest-match: no NTest move times in ${cal_files[*]}" >&2; exit 1; }
    ours="tc=$(python3 -c "print(f'{max($ntest_ms * $moves_per_clock / 1000, 0.05):.2f}')")+0"
    echo "ntest-match: NTest ${ntest_ms} ms/move at depth $depth (rounds 1-$round): ours $ours" >&2
  done
  echo "$ours" >"$out.limit"
fi
# The limit for the next part: the last part's limit times NTest's mean ms/move over the parts so far (all
# arguments but the last) over ours in the last part (the last argument), kept within half and twice it.
next_limit() {  # next_limit LIMIT PART.ggf... LAST_PART.ggf
  local limit=$1 last=${!#} ntest_ms ours_ms
  shift
  ntest_ms=$(mean_ms "$(python3 tools/scripts/ggf-times.py "$@")" ntest)
  ours_ms=$(mean_ms "$(python3 tools/scripts/ggf-times.py "$last")" reversi)
  python3 -c "s, n, o = float('${limit#tc=}'.split('+')[0]), '$ntest_ms', '$ours_ms'
f = float(n) / float(o) if n and o and float(o) > 0 and float(n) > 0 else 1.0
print(f'tc={max(s * min(max(f, 0.5), 2.0), 0.05):.2f}+0')"
}
if [ "$parts" = 1 ]; then
  play "$out" "$games" "$ours" each "$@"
else
  pairs_per_part=$((games / 2 / parts))
  pairs_before=0
  part_ggfs=()
  part_jsons=()
  limit=$ours
  for ((part = 1; part <= parts; part++)); do
    prefix=$out-p$part
    n=$((part < parts ? 2 * pairs_per_part : games - 2 * pairs_before))
    if [ $resume = 1 ] && [ -s "$prefix.limit" ]; then
      limit=$(cat "$prefix.limit")
    elif [ "$part" -gt 1 ]; then
      limit=$(next_limit "$limit" "${part_ggfs[@]}")
    fi
    echo "$limit" >"$prefix.limit"
    echo "ntest-match: part $part of $parts, $n games from opening $((pairs_before + 1)) (ours $limit) -> $prefix" >&2
    play "$prefix" "$n" "$limit" each "$@" --opening-offset "$pairs_before"
    part_ggfs+=("$prefix.ggf")
    part_jsons+=("$prefix.json")
    pairs_before=$((pairs_before + n / 2))
  done
  cat "${part_ggfs[@]}" >"$out.ggf"
  python3 tools/scripts/elo-pool.py "${part_jsons[@]}"
fi
if [ -n "${EVAL_FILES:-}" ]; then
  # The gauntlet's pairings read "ntest vs NAME" (NTest's side): each engine of ours from its own side.
  # An Elo of null in the JSON is infinite: its sign is the side that scored more.
  python3 -c "import json, sys
def ours(x, ntest_score):
    return f'{-x:+.1f}' if x is not None else ('+inf' if ntest_score < 0.5 else '-inf')
for p in json.load(open(sys.argv[1]))['pairings']:
    w, d, l, s = p['losses'], p['draws'], p['wins'], p['score']
    lo, hi = p['elo_ci95']
    print(f\"{p['engines'][1]} vs ntest: {p['games']} games, W/D/L {w}/{d}/{l}, Elo {ours(p['elo'], s)}\"
          f\" [{ours(hi, s)}, {ours(lo, s)}]\")" "$out.json"
fi
times=$(python3 tools/scripts/ggf-times.py "$out.ggf")
echo "$times"
ntest_ms=$(mean_ms "$times" ntest)
for name in "${names[@]}"; do
  ours_ms=$(mean_ms "$times" "$name")
  if [ -z "$ours_ms" ] || [ -z "$ntest_ms" ]; then continue; fi
  label="ours / NTest"
  [ -z "${EVAL_FILES:-}" ] || label="$name / NTest"
  # NTest's moves can all be recorded as 0 ms (the records' resolution is 1 ms): no ratio then.
  python3 -c "o, n, label = $ours_ms, $ntest_ms, '$label'
print(f'time ratio ({label}) undefined: NTest took 0 ms a move' if n == 0 else f'time ratio ({label}) {o / n:.2f}' + ('' if 1 / 1.2 <= o / n <= 1.2 else ': not equal time (outside 0.83-1.2)'))"
done
