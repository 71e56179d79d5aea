#!/usr/bin/env bash
# 2026-11-28 on the GPU machine: the enumeration of short programs (issue 26). Results: docs/results/h200-2026-11-28-gp-enumerate/.
#   . .gl/env.sh && docs/results/h200-2026-11-28-gp-enumerate/run.sh DIR MODE
# enum (issue 26): the enumeration of short programs that seeds the main search. DIR holds
#   glevo, lib/, data/ (friedman-1.csv, nguyen-9.csv) and the GP test binaries matching SUITES
#   (default test_gp_enumerate, test_gp_portfolio, test_gp_same, test_gp_const_opt):
#   suites_gp.log; whole runs at the defaults (2000 x 100, compute) with and without the
#   enumeration (--enumerate 0), seeds 1-3, best of three processes each (gp.csv); the first
#   generation alone (--generations 0) with and without it, best of three (first.csv).
# final (issue 26): enum's measurements with the build as committed, and the Nguyen suite on the
#   compute backend through the srbench harness, 30 seeds from 301 (sr/nguyen_compute).
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

# DATA's runs at the defaults on compute, with and without the enumeration, seeds 1-3, three
# processes each, --generations N, into FILE; their best.
runs() {
  local file=$1 n=$2 data s v js
  echo "variant,data,seed,seconds,best_fitness" > "$out/$file"
  for data in friedman-1 nguyen-9; do
    for s in 1 2 3; do
      for _ in 1 2 3; do
        for v in enum off; do
          local opts=()
          [ "$v" = off ] && opts=(--enumerate 0)
          js=$("$g" gp --data "$dir/data/$data.csv" --pop 2000 --generations "$n" --backend compute \
               --seed "$s" --quiet --json "${opts[@]}")
          python3 -c "import json,sys; d=json.loads(sys.argv[1]); print('$v,$data,$s,%.6f,%s' % (d['seconds'], d['best_fitness']))" "${js:-null}" 2>/dev/null || echo "$v,$data,$s,failed,"
        done
      done
    done
  done >> "$out/$file"
  best_ms "$out/$file" data seed variant
}

case $mode in
enum)
  suites "${SUITES:-test_gp_*}" suites_gp.log
  cat "$out/suites_gp.log"
  runs gp.csv 100
  runs first.csv 0
  ;;
final)
  suites "${SUITES:-test_gp_*}" suites_gp.log
  cat "$out/suites_gp.log"
  runs gp.csv 100
  runs first.csv 0
  mkdir -p "$out/sr"
  SR_SEED=301 sr nguyen_compute nguyen
  ;;
*)
  echo "$0: unknown mode '$mode' (enum, final)" >&2
  exit 2
  ;;
esac
