#!/usr/bin/env bash
# 2026-11-25 (late) on the GPU machine: the blocked cGA kernel by clock and constant fitting's
# cost (issues 25 and 26), what of it runs on this tree. Results and what each call measured: docs/results/h100-2026-11-25-cga-clock-constfit/ and
# docs/performance-history.md ("2026-11-25 (late): the blocked cGA kernel's time by clock, and constant fitting's").
#   . .gl/env.sh && docs/results/h100-2026-11-25-cga-clock-constfit/run.sh DIR MODE
# DIR holds glevo, the test binaries the mode runs and lib/ (libsubunit); MODE is
#   gp-cost   every GP suite, then constant fitting's cost: 10 000 programs x 1000 cases
#             (gp_sr_data.py), 20 generations, compute, mse, fitting off and at 1, 2, 4, 8
#             iterations on 256 spread cases, and at 1 and 4 on every case
#             (GLEVO_GP_FIT_ALL_CASES=1); seeds 2 and 3, each run twice and the second kept
#             (a seed's first run compiles the builds its programs need, 1-2 s each on a cold
#             driver) -> constfit.jsonl; --profile's GPU time a pass, off and at 1 iteration
#             -> profile_fit0.txt, profile_fit1.txt;
#   cga-scan  every cGA suite, the blocked kernel's tiles and depths (camel, per-bit unless
#             said, best of three each) -> cga_scan.csv, and the bit-for-bit checkpoints
#             against one generation a dispatch -> bitwise.txt.
# The rule's final runs beside JAX are scripts/device/cga-block.sh GLEVO final .peers.
# The phase clocks (GL_ARB_shader_clock) and the kernels with a part left out came from
# temporary builds that are not in the tree.
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

cga_best3() { # GRID GENERATIONS MUTATION TILE DEPTH: three runs' seconds, a CSV row each
  local args=(cga --problem camel --grid "$1" --generations "$2" --report-every "$2" --mutation "$3"
              --backend compute --quiet --json) r
  [ "$5" != auto ] && args+=(--block-depth "$5")
  [ "$4" != auto ] && args+=(--block-tile "$4")
  for r in 1 2 3; do
    "$g" "${args[@]}" | python3 -c "import json,sys; print('$1,$2,$3,$4,$5,'+str(json.load(sys.stdin)['seconds']))"
  done
}

case $mode in
gp-cost)
  suites 'test_gp_*' suites_gp.log
  mkdir -p "$out/data"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3; do
    for it in 0 1 2 4 8; do constfit "spread$it" "$s" 20 X=1 --const-opt "$it"; done
    for it in 1 4; do constfit "all$it" "$s" 20 GLEVO_GP_FIT_ALL_CASES=1 --const-opt "$it"; done
  done
  for it in 0 1; do
    for r in 1 2; do
      "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 --metric mse \
        --backend compute --seed 2 --quiet --const-opt "$it" --profile > /dev/null 2> "$out/profile_fit$it.txt"
    done
  done
  rm -rf "$out/data"
  ;;
cga-scan)
  suites 'test_cga_*' suites_cga.log
  echo "grid,generations,mutation,tile,depth,seconds" > "$out/cga_scan.csv"
  "$g" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null # shader cache
  {
    cga_best3 64x64 200 per-bit auto 0; cga_best3 64x64 200 per-bit auto auto
    for d in 3 4 5 6 8; do cga_best3 64x64 200 per-bit 8x4 $d; done
    for d in 3 4 6 8; do cga_best3 64x64 200 per-bit 8x8 $d; cga_best3 64x64 200 per-bit 16x8 $d; done
    cga_best3 100x100 1000 per-bit auto 0; cga_best3 100x100 1000 per-bit auto auto
    for d in 3 4 5 6 8; do cga_best3 100x100 1000 per-bit 16x8 $d; done
    for d in 4 6 8; do cga_best3 100x100 1000 per-bit 8x8 $d; cga_best3 100x100 1000 per-bit 16x16 $d; done
    cga_best3 100x100 1000 skip auto 0; cga_best3 100x100 1000 skip auto auto
    cga_best3 316x316 1000 per-bit auto 0; cga_best3 316x316 1000 per-bit auto auto
    for d in 1 2 3 4; do cga_best3 316x316 1000 per-bit 16x8 $d; cga_best3 316x316 1000 per-bit 32x16 $d; done
    cga_best3 316x316 1000 per-bit 16x16 2; cga_best3 316x316 1000 per-bit 16x16 4
    cga_best3 1000x1000 1000 per-bit auto 0; cga_best3 1000x1000 1000 skip auto 0
    for d in 1 2; do cga_best3 1000x1000 1000 per-bit 32x16 $d; cga_best3 1000x1000 1000 skip 32x16 $d; done
  } >> "$out/cga_scan.csv"
  # cga-block.sh's bit-for-bit check: the rule, and depth 4 on 4x2 tiles, against one
  # generation a dispatch (its CSV of no rows goes with it).
  scripts/device/cga-block.sh "$g" bitwise > /dev/null 2>&1
  rm -f "$out/cga_block_bitwise.csv" "$out/err.txt" "$out/user.glsl"
  ;;
*)
  echo "$0: unknown mode '$mode' (gp-cost, cga-scan)" >&2
  exit 2
  ;;
esac
