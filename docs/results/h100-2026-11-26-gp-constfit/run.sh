#!/usr/bin/env bash
# 2026-11-26 on the GPU machine: constant fitting's fixed cost (issue 26). Results and what each call
# measured: docs/results/h100-2026-11-26-gp-constfit/ and docs/performance-history.md ("2026-11-26: constant fitting's fixed cost found").
#   . .gl/env.sh && docs/results/h100-2026-11-26-gp-constfit/run.sh DIR MODE
# DIR holds glevo, the test binaries the mode runs and lib/ (libsubunit); MODE is
#   gp-fit   the GPU's limits (glevo info), every GP suite, then constant fitting's cost on
#            10 000 programs x 1000 cases (gp_sr_data.py), compute, mse, --max-size 64: a
#            generation's time as (T(120 generations) - T(20)) / 100, fitting off and at 1
#            and 4 iterations, seeds 2-4 (each run twice, the second kept: a seed's first
#            run compiles its builds) -> constfit.jsonl; --profile's tables at 20
#            generations -> profile_fit*.txt; the kernels' shared and local memory
#            (GLEVO_DUMP_PROGRAMS) -> programs.txt.
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

case $mode in
gp-fit)
  "$g" info > "$out/info.txt" 2>&1
  cat "$out/info.txt"
  suites 'test_gp_*' suites_gp.log
  grep -c pass "$out/suites_gp.log"; grep -A20 FAIL "$out/suites_gp.log"
  mkdir -p "$out/data" "$out/programs"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3 4; do
    for n in 20 120; do
      constfit off "$s" "$n" X=1 --const-opt 0
      constfit fit1 "$s" "$n" X=1 --const-opt 1
      constfit fit4 "$s" "$n" X=1 --const-opt 4
    done
  done
  for it in 0 1 4; do
    for r in 1 2; do
      "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 --metric mse \
        --backend compute --seed 2 --quiet --const-opt "$it" --profile > /dev/null 2> "$out/profile_fit$it.txt"
    done
    cat "$out/profile_fit$it.txt"
  done
  GLEVO_DUMP_PROGRAMS="$out/programs" "$g" gp --data "$out/data/sr_1000.csv" --pop 1000 --generations 2 \
    --metric mse --backend compute --const-opt 1 --quiet > /dev/null
  GLEVO_DUMP_PROGRAMS="$out/programs" "$g" cga --grid 1000x1000 --generations 2 --backend compute --quiet > /dev/null
  for f in "$out"/programs/*.bin; do
    echo "$(basename "$f"): $(strings "$f" | grep -E "lmem0\[[0-9]+\];|SHARED_MEMORY" | tr '\n' ' ')"
  done > "$out/programs.txt"
  cat "$out/programs.txt"
  strings "$out"/programs/cga.evolve.*.bin | grep -n "lmem0" | head -60
  rm -rf "$out/programs"
  rm -rf "$out/data"
  ;;
*)
  echo "$0: unknown mode '$mode' (gp-fit)" >&2
  exit 2
  ;;
esac
