#!/usr/bin/env bash
# Remakes the pattern evaluation's training data and weights in one resumable run: the self-play games,
# the fit with searched midgame targets, the Multi-ProbCut calibration and the hard sets' measurement
# (docs/eval.md, "The retraining pipeline"). Every stage keeps what it finished in OUT_DIR, so the same
# command after an interruption (or in a later session) goes on where it stopped:
#   selfplay   one file of GAMES games per seed (OUT_DIR/sp/WTH_SELF_S<seed>.wtb; a seed's file is
#              written in OUT_DIR/sp-part and moved when complete, so a cut-short seed is played again)
#   fit        reversi-train train: the sample cache (OUT_DIR/cache) and the searched targets
#              (OUT_DIR/search.ckpt) are resumable, and so are the fitted phases (--resume)
#   calibrate  reversi-train probcut, one run per schedule of SCHEDULES, each adding the cells the
#              previous one lacks (--keep-model); the last one's output is OUT_DIR/pattern.weights
#   measure    reversi-train measure on the exact-scored hard sets (OUT_DIR/measure.txt), when present
# What a stage made is kept only while its inputs stand: a seed played (again) drops its cached samples,
# the fit and the calibrations; a fit done drops the calibrations; each calibration file records the
# schedules that made it, so a changed SCHEDULES recomputes from the first one that differs. The fit
# itself resumes with the phases already in fit.weights: delete fit.weights to refit with other FIT_ARGS.
# OUT_DIR is taken from the caller's directory; the other paths below from the project root.
# The first run copies the trainer and the search weights into OUT_DIR (bin/reversi-train,
# search.weights) and uses those copies afterwards: the games and the checkpoint stay consistent when
# the project's build or weights change in between. Each stage logs to OUT_DIR/<stage>.log.
#
# Usage: tools/scripts/retrain.sh OUT_DIR [STAGE ...]   (default: all four stages, in order)
# Environment (defaults are the recipe of the shipped weights, v12):
#   SEEDS           self-play seeds, FIRST-LAST (default 300-389)
#   GAMES           games per seed (default 4000)
#   SELFPLAY_ARGS   (default "--depth 6 --random-plies 3 --exact-from 16")
#   OPENINGS        XOT openings of the self-play (default ../shared/data/openings/xot/openingslarge.txt)
#   BASE_SELFPLAY   more self-play files (made by selfplay) for the fit, comma-separated
#                   (default engine/data/selfplay/*.wtb)
#   WTHOR           folder of the WTHOR database (default ../shared/data/wthor)
#   EXACT_EMPTIES   exact targets up to this many empties (default 16)
#   SELFPLAY_PERFECT  1 (default): the self-play files (seeds and BASE_SELFPLAY) play perfectly from their
#                   theory depth, as selfplay writes them: train --selfplay-perfect, no solves there; 0: solved
#                   (so too, with a warning, when OUT_DIR's trainer predates --selfplay-perfect)
#   SEARCH_DEPTH    depth of the searched targets (default 8), SEARCH_EMPTIES (default 30-60),
#   SEARCH_WEIGHT   their blend weight (default 0.5), SEARCH_WEIGHTS the weights that search them
#                   (default engine/data/pattern.weights, the shipped ones)
#   FIT_ARGS        more train options (e.g. "--lambda 5 --iterations 60")
#   SCHEDULES       probcut schedules, space-separated (default "10:2100,11:1400,12:910 13:700 14:700"),
#   PROBCUT_ARGS    more probcut options (e.g. "--min-samples 100")
#   HARD            folder of hard-20/25/30.obf (default ../shared/data/endgame-hard)
#   TRAIN           the trainer to copy on the first run (default build/release/tools/reversi-train)
#   THREADS         (default 2), NICE (default 5)
set -euo pipefail
if [ $# -lt 1 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
  sed -n '2,43p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0 || exit 2
fi
out=$(realpath -m -- "$1")
shift
cd "$(dirname "$0")/../.."
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(selfplay fit calibrate measure)
for s in "${stages[@]}"; do
  case "$s" in selfplay | fit | calibrate | measure) ;; *)
    echo "retrain: unknown stage '$s' (selfplay, fit, calibrate, measure)" >&2
    exit 2
    ;;
  esac
done
seeds=${SEEDS:-300-389}
first=${seeds%-*}
last=${seeds#*-}
[[ "$first" =~ ^[0-9]+$ && "$last" =~ ^[0-9]+$ && $first -le $last ]] ||
  { echo "retrain: SEEDS must be FIRST-LAST, not '$seeds'" >&2; exit 2; }
games=${GAMES:-4000}
threads=${THREADS:-2}
niceness=${NICE:-5}
perfect=${SELFPLAY_PERFECT:-1}
[[ "$perfect" =~ ^[01]$ ]] || { echo "retrain: SELFPLAY_PERFECT must be 0 or 1, not '$perfect'" >&2; exit 2; }
for v in "GAMES=$games" "THREADS=$threads" "NICE=$niceness"; do
  [[ "${v#*=}" =~ ^[0-9]+$ ]] || { echo "retrain: ${v%%=*} must be a number, not '${v#*=}'" >&2; exit 2; }
done
wthor=${WTHOR:-../shared/data/wthor}
mkdir -p "$out/sp" "$out/sp-part" "$out/cache" "$out/bin"
say() { echo "retrain: $*" >&2; }
# copy SRC DST: DST appears whole or not at all.
copy() {
  cp "$1" "$2.part"
  mv "$2.part" "$2"
}
# Whether seed $1's games are all there: a WTHOR file of GAMES games has a 16-byte header and 68 bytes a game.
complete_size=$((16 + 68 * games))
seed_complete() {
  local f=$out/sp/WTH_SELF_S$1.wtb
  [ -f "$f" ] && [ "$(stat -c %s "$f")" = "$complete_size" ]
}
# The calibrations (and the weights made from them) of a fit or of games that changed.
drop_calibrations() { rm -f "$out"/cal*.weights "$out"/cal*.schedules "$out/pattern.weights"; }

# The copies every later run uses.
if [ ! -x "$out/bin/reversi-train" ]; then
  train_src=${TRAIN:-build/release/tools/reversi-train}
  [ -x "$train_src" ] || { say "$train_src is missing: build it first (cmake --build --preset release)"; exit 2; }
  copy "$train_src" "$out/bin/reversi-train"
fi
[ -f "$out/search.weights" ] || copy "${SEARCH_WEIGHTS:-engine/data/pattern.weights}" "$out/search.weights"
# train LOG ARGS...: the trainer, its stdout and stderr appended to OUT_DIR/LOG.log; on failure the
# log's tail goes to stderr and the run stops.
train() {
  local log=$out/$1.log rc=0
  shift
  nice -n "$niceness" "$out/bin/reversi-train" "$@" >>"$log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    say "reversi-train $1 failed (exit $rc); the end of $log:"
    tail -n 5 "$log" >&2
    exit 1
  fi
}

selfplay() {
  local s made=0 kept=0
  # shellcheck disable=SC2086  # SELFPLAY_ARGS is a list of options
  for s in $(seq "$first" "$last"); do
    if seed_complete "$s"; then
      kept=$((kept + 1))
      continue
    fi
    train selfplay selfplay --games "$games" ${SELFPLAY_ARGS:---depth 6 --random-plies 3 --exact-from 16} \
      --openings "${OPENINGS:-../shared/data/openings/xot/openingslarge.txt}" --threads "$threads" \
      --seed "$s" --out "$out/sp-part/WTH_SELF_S$s.wtb"
    mv "$out/sp-part/WTH_SELF_S$s.wtb" "$out/sp/WTH_SELF_S$s.wtb"
    rm -f "$out/cache/WTH_SELF_S$s.samples" "$out/fit.done"
    drop_calibrations
    made=$((made + 1))
    say "selfplay: seed $s done ($((s - first + 1)) of $((last - first + 1)))"
  done
  say "selfplay: $made seeds played, $kept already there"
}

fit() {
  if [ -f "$out/fit.done" ]; then
    say "fit: already done ($out/fit.weights)"
    return
  fi
  local files="" base s f resume=()
  for s in $(seq "$first" "$last"); do
    seed_complete "$s" || { say "fit: seed $s's games are missing or incomplete: run the selfplay stage first"; exit 1; }
    files+=${files:+,}$out/sp/WTH_SELF_S$s.wtb
  done
  base=${BASE_SELFPLAY-$(printf '%s\n' engine/data/selfplay/*.wtb | paste -sd,)}
  if [ -n "$base" ]; then
    # The sample cache is keyed by file name: a base file named like a seed's would take its samples.
    for f in ${base//,/ }; do
      s=$(basename "$f" .wtb)
      s=${s#WTH_SELF_S}
      if [[ "$s" =~ ^[0-9]+$ ]] && [ "$s" -ge "$first" ] && [ "$s" -le "$last" ]; then
        say "fit: BASE_SELFPLAY's $f has the name of seed $s's file: choose other SEEDS"
        exit 2
      fi
    done
    files="$base,$files"
  fi
  [ ! -f "$out/fit.weights" ] || resume=(--resume)
  local solves=()
  if [ "$perfect" = 1 ]; then
    local help
    help=$("$out/bin/reversi-train" --help 2>&1 || true)
    if [[ "$help" == *--selfplay-perfect* ]]; then
      solves=(--selfplay-perfect)
    else
      say "fit: $out/bin/reversi-train predates --selfplay-perfect: the self-play files are solved"
    fi
  fi
  say "fit: $(tr ',' '\n' <<<"$files" | wc -l) self-play files; log $out/fit.log"
  # shellcheck disable=SC2086  # FIT_ARGS is a list of options
  train fit train --wthor "$wthor" --exact-empties "${EXACT_EMPTIES:-16}" \
    --threads "$threads" --cache "$out/cache" --selfplay "$files" \
    --search-depth "${SEARCH_DEPTH:-8}" --search-empties "${SEARCH_EMPTIES:-30-60}" \
    --search-weight "${SEARCH_WEIGHT:-0.5}" --search-weights "$out/search.weights" \
    --search-checkpoint "$out/search.ckpt" ${FIT_ARGS:-} "${solves[@]}" "${resume[@]}" --out "$out/fit.weights"
  drop_calibrations
  touch "$out/fit.done"
  say "fit: done ($out/fit.weights)"
}

calibrate() {
  [ -f "$out/fit.done" ] || { say "calibrate: the fit is not done yet"; exit 1; }
  local prev=$out/fit.weights i=0 schedule chain="" keep=()
  # shellcheck disable=SC2086  # PROBCUT_ARGS is a list of options
  for schedule in ${SCHEDULES:-10:2100,11:1400,12:910 13:700 14:700}; do
    i=$((i + 1))
    chain+="$schedule ${PROBCUT_ARGS:-};"
    # cal<i>.schedules: the schedules (and options) of calibrations 1..i; a file made otherwise is redone.
    if [ ! -f "$out/cal$i.weights" ] || [ "$(cat "$out/cal$i.schedules" 2>/dev/null)" != "$chain" ]; then
      rm -f "$out/cal$i.weights"
      say "calibrate: schedule $schedule; log $out/calibrate.log"
      train calibrate probcut --wthor "$wthor" --weights "$prev" --schedule "$schedule" \
        ${PROBCUT_ARGS:-} "${keep[@]}" --threads "$threads" --out "$out/cal$i.weights.part"
      mv "$out/cal$i.weights.part" "$out/cal$i.weights"
      echo "$chain" >"$out/cal$i.schedules"
    fi
    prev=$out/cal$i.weights
    keep=(--keep-model)
  done
  copy "$prev" "$out/pattern.weights"
  say "calibrate: done ($out/pattern.weights)"
}

measure() {
  [ -f "$out/pattern.weights" ] || { say "measure: calibrate first"; exit 1; }
  local hard=${HARD:-../shared/data/endgame-hard} sets=()
  for n in 20 25 30; do [ ! -f "$hard/hard-$n.obf" ] || sets+=("$hard/hard-$n.obf"); done
  if [ ${#sets[@]} -eq 0 ]; then
    say "measure: skipped, no hard-20/25/30.obf in $hard"
    return
  fi
  nice -n "$niceness" "$out/bin/reversi-train" measure --weights "$out/pattern.weights" "${sets[@]}" \
    >"$out/measure.txt" 2>>"$out/measure.log" || { say "measure failed; see $out/measure.log"; exit 1; }
  cat "$out/measure.txt"
}

for s in "${stages[@]}"; do
  t0=$(date +%s)
  "$s"
  say "$s: $(($(date +%s) - t0)) s"
done
