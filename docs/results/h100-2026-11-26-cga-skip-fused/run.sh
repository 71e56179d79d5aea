#!/usr/bin/env bash
# 2026-11-26 on the GPU machine, cGA (issue 25): skip mutation's children scored in the fused
# kernel, its fold's loads four at a time. (The same day's GP portfolio measurements ran
# docs/results/h100-2026-11-26-gp-portfolio/run.sh.) Results: docs/results/h100-2026-11-26-cga-skip-fused/cga/ and
# docs/performance-history.md ("2026-11-26: skip mutation's children scored in the fused kernel").
#   . .gl/env.sh && docs/results/h100-2026-11-26-cga-skip-fused/run.sh DIR cga-skip
# DIR holds glevo, glevo_old (the landed build before: c5e85ef), lib/, the cGA test binaries
# and peers/cga_jax.py. It runs every cGA suite (DIR/test_cga_*) -> suites_cga.log; old and new
# runs' end checkpoints the same run (same.txt); best of three processes each, old and new, at
# the issue's grids, other problems and larger grids -> skip.csv; the JAX peer -> jax.jsonl.
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

case $mode in
cga-skip)
  suites 'test_cga_*' suites_cga.log
  cat "$out/suites_cga.log"
  for c in "1000x1000 30 skip" "1000x1000 30 skip --problem sphere --dim 24" "1200x1200 20 skip" \
           "700x700 40 skip --neighbourhood von-neumann" "1000x1000 20 per-bit" "316x316 50 skip"; do
    # shellcheck disable=SC2086 # c splits into grid, generations, mutation and options
    set -- $c
    for v in glevo glevo_old; do
      "$dir/$v" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" --quiet \
        --checkpoint "$out/$v.ckpt" --overwrite --backend compute "${@:4}" > /dev/null
    done
    same_end "$out/glevo.ckpt" "$out/glevo_old.ckpt" "$c"
  done | tee "$out/same.txt"
  rm -f "$out"/*.ckpt
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/skip.csv"
  cga_run glevo 64x64 10 per-bit > /dev/null; cga_run glevo_old 64x64 10 per-bit > /dev/null
  for r in 1 2 3; do
    for v in glevo_old glevo; do
      cga_run $v 64x64 200 per-bit
      for grid in 100x100 316x316 1000x1000; do
        cga_run $v $grid 1000 per-bit; cga_run $v $grid 1000 skip
      done
      for o in "--neighbourhood von-neumann" "--neighbourhood moore5" "--problem rastrigin --dim 10" \
               "--problem sphere --dim 24" "--fitness data/examples/fitness.glsl --lower -3 --upper 3"; do
        # shellcheck disable=SC2086 # the options split into words
        cga_run $v 1000x1000 1000 skip $o
      done
      for grid in 700x700 1200x1200 2000x2000; do cga_run $v $grid 1000 skip; done
      cga_run $v 2000x2000 1000 skip --problem sphere --dim 24
    done
  done >> "$out/skip.csv"
  python3 - "$out/skip.csv" <<'PY'
import csv, sys, collections
best = collections.defaultdict(lambda: float("inf"))
for r in csv.DictReader(open(sys.argv[1])):
    if r["seconds"] != "failed":
        k = (r["grid"], r["generations"], r["mutation"], r["options"])
        best[k + (r["variant"],)] = min(best[k + (r["variant"],)], float(r["seconds"]))
for k in sorted({k[:4] for k in best}):
    o, n = best[k + ("glevo_old",)], best[k + ("glevo",)]
    print("%s x %s %s %s: old %.2f ms, new %.2f ms (%.3fx)" % (k[0], k[1], k[2], k[3], 1e3 * o, 1e3 * n, o / n))
PY
  timeout 200 python3 "$dir/peers/cga_jax.py" 64 64 200 100 100 1000 316 316 1000 1000 1000 1000 > "$out/jax.jsonl" 2> "$out/jax_err.txt"
  cat "$out/jax.jsonl"
  ;;
*)
  echo "$0: unknown mode '$mode' (cga-skip)" >&2
  exit 2
  ;;
esac
