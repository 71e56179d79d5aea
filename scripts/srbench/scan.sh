# shellcheck shell=bash
# Scans of the srbench harness (run.py) on a development machine, for sourcing:
#   GLEVO=path/to/glevo SCAN_OUT=dir . scripts/srbench/scan.sh
#   scan NAME SUITE SEED SEEDS [VAR=VALUE ...] [-- OPTIONS]
# runs SEEDS seeds from SEED (the data's seeds the same) of SUITE with $GLEVO at pop 2000 x 100
# (run.py's CPU backend, one thread a run, two runs at once) into $SCAN_OUT/NAME (runs.csv,
# summary.md; the generated data removed), with VAR=VALUE in glevo's environment (prototype
# switches) and OPTIONS after run.py's; a NAME already finished is skipped; its "all" row is
# appended to $SCAN_OUT/results.txt. Run from the repository root with Debian's python3.
scan() {
  local name=$1 suite=$2 seed=$3 seeds=$4 env=()
  shift 4
  while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  [ -f "$SCAN_OUT/$name/runs.csv" ] && return
  env "${env[@]}" /usr/bin/python3 scripts/srbench/run.py --glevo "$GLEVO" --suite "$suite" \
    --seeds "$seeds" --seed "$seed" --data-seed "$seed" --jobs 2 --pop 2000 \
    --out "$SCAN_OUT/$name" -- --threads 1 "$@" > "$SCAN_OUT/$name.log" 2>&1
  rm -rf "$SCAN_OUT/$name/data"
  echo "$name $(grep '\*\*all' "$SCAN_OUT/$name/summary.md" | tail -1)" >> "$SCAN_OUT/results.txt"
}
