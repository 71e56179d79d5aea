#!/usr/bin/env bash
# 2026-11-28 on the GPU machine: moore5's tiles, the reduction by keys (issue 25), the portfolio's helper terms (issue 26). Results: docs/results/h200-2026-11-28-cga-reduce-gp-helpers/.
#   . .gl/env.sh && docs/results/h200-2026-11-28-cga-reduce-gp-helpers/run.sh DIR MODE
# torus (issue 25): the cGA's torus wrap by one add or subtract instead of `%`. DIR holds glevo
#   (the new shaders, embedded), glevo_oldsh (the same binary with the shaders of b8a9a12
#   through GLEVO_SHADER_DIR), lib/ and the cGA test binaries. Old and new end checkpoints the
#   same run (same.txt); best of three processes each (torus.csv); the cGA suites
#   (suites_cga.log).
# plans (issue 25): the blocked kernel's tile and depth by measurement: moore5 at 316x316
#   (per-bit) and skip mutation at 1000x1000, best of three processes (plans.csv).
# plans2 (issue 25): the tiles of plans' best moore5 plan at every neighbourhood and the grids
#   below 512x512, best of three processes (plans2.csv).
# parts (issue 25): where the fused kernel's time goes with skip mutation at 1000x1000: DIR's
#   glevo_PART run it with evolve.glsl's PART left out (sh-PART: nosel, nomut, nocut, noscore,
#   none; wrong runs, for time only), best of three processes (parts.csv).
# barrier (issue 25): a dispatch after a dispatch fences the shader reads alone (three
#   barrier bits, not seven), and moore5's tile of 32x32 below 512x512. DIR holds glevo,
#   glevo_old (b8a9a12), lib/ and data/friedman-1.csv. End checkpoints the same run (same.txt);
#   best of three processes (barrier.csv); whole GP runs at the defaults, compute, three seeds
#   (gp.csv).
# base (issue 25): what the fused kernel costs with skip mutation at 1000x1000 once selection,
#   the cut points, mutation and scoring are out (`parts`' none): DIR's glevo_vVARIANT run
#   evolve.glsl with more left out (sh-VARIANT: none, nonenored (no group reduction),
#   nonenofold (no fold), nonenofit (no fitness stores), copy (all four), nored, nofold (the
#   whole kernel without one)); wrong runs, for time only, best of three (base.csv).
# reduce (issue 25): the fused kernel's group reduction by a two-word key (sh-key: one uvec2 and
#   a lane shuffled a level, not a vec4 and better()), against the kernel without the best's
#   genes stored (sh-nogenes) or without the reduction (sh-nored; both wrong runs, for time).
#   End checkpoints of glevo and glevo_vkey (same_key.txt); best of three (reduce.csv).
# last (issue 25): sh-key with the tiles' groups reduced without an end barrier: each subgroup's
#   best and its genes into shared memory, the last subgroup to finish (a shared counter) writes
#   the group's entry (sh-last). End checkpoints (same_last.txt), test_cga_fused with sh-last
#   and sh-key, best of three (last.csv).
# final (issue 25): the build as committed: the cGA and reduce suites (suites.log), then the
#   issue's table with JAX in the same call (docs/results/h200-2026-11-28-cga-philox-gp-restarts/run.sh's cga mode, into cga/).
# rows (issue 25): the fused kernel's work-groups of 8 x R pairs (GLEVO_CGA_ROWS=R: 4, 8, 16, 32).
#   End checkpoints against R = 8 (same_rows.txt); best of three at 1000x1000 (rows.csv).
# tile (issue 25): the compute evolve kernel's selection from a fitness tile in shared memory
#   (its cells and a halo of R, read once a group) instead of texel fetches a neighbour.
#   glevo_old: 60383fe. Same runs (same_tile.txt), the cGA suites (suites_cga.log), best of
#   three (tile.csv).
# gp (issue 26): the portfolio's helper terms (linear scaling, the constant 1). DIR holds glevo,
#   glevo_old (f17d564: without them), lib/, data/friedman-1.csv and the GP test binaries
#   matching SUITES (default test_gp_portfolio): suites_gp.log; whole Friedman-1 runs at the
#   defaults, compute, three seeds, best of three processes each (gp.csv).
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

# Whole Friedman-1 runs at the defaults on compute, DIR's glevo_old and glevo, seeds 1-3, three
# processes each (gp.csv), and their best.
friedman_runs() {
  local s v js
  echo "variant,seed,seconds,best_fitness" > "$out/gp.csv"
  for s in 1 2 3; do
    for _ in 1 2 3; do
      for v in glevo_old glevo; do
        js=$("$dir/$v" gp --data "$dir/data/friedman-1.csv" --pop 2000 --generations 100 --backend compute \
             --seed "$s" --quiet --json)
        python3 -c "import json,sys; d=json.loads(sys.argv[1]); print('$v,$s,%.6f,%s' % (d['seconds'], d['best_fitness']))" "${js:-null}" 2>/dev/null || echo "$v,$s,failed,"
      done
    done
  done >> "$out/gp.csv"
  best_ms "$out/gp.csv" seed variant
}

# 1000x1000 x 1000 with skip and per-bit mutation for each of DIR's VARIANTs, three rounds
# (FILE), and their best.
at_million() {
  local file=$1 v
  shift
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/$file"
  for _ in 1 2 3; do
    for v in "$@"; do
      cga_run "$v" 1000x1000 1000 skip
      cga_run "$v" 1000x1000 1000 per-bit
    done
  done >> "$out/$file"
  best_ms "$out/$file" mutation variant
}

case $mode in
torus)
  same_cga glevo_oldsh glevo same.txt "1000x1000 20 per-bit" "1000x1000 30 skip" "1000x1000 20 per-bit --neighbourhood moore5" \
           "1000x1000 20 skip --neighbourhood von-neumann" "316x316 40 per-bit --block-depth 0" \
           "100x100 40 skip --neighbourhood moore5 --block-depth 0" "8x5 30 per-bit --neighbourhood moore5 --block-depth 0"
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/torus.csv"
  for r in 1 2 3; do
    for v in glevo_oldsh glevo; do
      cga_run $v 1000x1000 1000 per-bit
      cga_run $v 1000x1000 1000 skip
      cga_run $v 1000x1000 1000 per-bit --neighbourhood moore5
      cga_run $v 1000x1000 1000 skip --neighbourhood von-neumann
      cga_run $v 1000x1000 1000 per-bit --fitness data/examples/fitness.glsl --lower -3 --upper 3
      cga_run $v 316x316 1000 per-bit --block-depth 0
    done
  done >> "$out/torus.csv"
  best_ms "$out/torus.csv" grid mutation options variant
  suites "test_cga_*" suites_cga.log
  cat "$out/suites_cga.log"
  ;;
plans)
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/plans.csv"
  for r in 1 2 3; do
    for p in "" "--block-depth 0" "--block-depth 1 --block-tile 32x16" "--block-depth 1 --block-tile 64x16" \
             "--block-depth 1 --block-tile 32x32" "--block-depth 2 --block-tile 16x16" \
             "--block-depth 2 --block-tile 32x8" "--block-depth 2 --block-tile 64x8" \
             "--block-depth 2 --block-tile 64x16" "--block-depth 2 --block-tile 32x32" \
             "--block-depth 3 --block-tile 32x16" "--block-depth 3 --block-tile 64x16" \
             "--block-depth 4 --block-tile 32x32"; do
      # shellcheck disable=SC2086 # the options split into words
      cga_run glevo 316x316 1000 per-bit --neighbourhood moore5 $p
    done
    for p in "" "--block-depth 1 --block-tile 32x16" "--block-depth 1 --block-tile 64x16" \
             "--block-depth 2 --block-tile 32x16" "--block-depth 2 --block-tile 64x16" \
             "--block-depth 2 --block-tile 64x32" "--block-depth 3 --block-tile 64x16"; do
      # shellcheck disable=SC2086
      cga_run glevo 1000x1000 1000 skip $p
    done
  done >> "$out/plans.csv"
  best_ms "$out/plans.csv" grid mutation options
  ;;
plans2)
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/plans2.csv"
  for r in 1 2 3; do
    for n in moore von-neumann moore5; do
      for p in "" "--block-depth 2 --block-tile 32x32" "--block-depth 2 --block-tile 64x16" \
               "--block-depth 2 --block-tile 16x16" "--block-depth 3 --block-tile 32x32"; do
        # shellcheck disable=SC2086 # the options split into words
        cga_run glevo 316x316 1000 per-bit --neighbourhood $n $p
        # shellcheck disable=SC2086
        cga_run glevo 100x100 1000 per-bit --neighbourhood $n $p
      done
      for p in "--block-depth 4 --block-tile 16x16" "--block-depth 4 --block-tile 32x16" "--block-depth 8 --block-tile 32x16"; do
        # shellcheck disable=SC2086
        cga_run glevo 100x100 1000 per-bit --neighbourhood $n $p
      done
    done
    for p in "" "--block-depth 2 --block-tile 32x32" "--block-depth 2 --block-tile 64x16"; do
      # shellcheck disable=SC2086
      cga_run glevo 316x316 1000 skip $p
    done
    for p in "" "--block-depth 2 --block-tile 32x32" "--block-depth 4 --block-tile 16x16" "--block-depth 4 --block-tile 32x16"; do
      # shellcheck disable=SC2086
      cga_run glevo 64x64 200 per-bit $p
    done
  done >> "$out/plans2.csv"
  best_ms "$out/plans2.csv" grid mutation options
  ;;
parts)
  at_million parts.csv glevo glevo_nosel glevo_nomut glevo_nocut glevo_noscore glevo_none
  ;;
barrier)
  same_cga glevo_old glevo same.txt "1000x1000 30 skip" "1000x1000 20 per-bit" "316x316 40 per-bit --neighbourhood moore5" \
           "100x100 40 per-bit" "8x8 40 per-bit --block-depth 0"
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/barrier.csv"
  for r in 1 2 3; do
    for v in glevo_old glevo; do
      cga_run $v 8x8 2000 per-bit --block-depth 0
      cga_run $v 100x100 1000 per-bit --block-depth 0
      cga_run $v 64x64 200 per-bit
      cga_run $v 100x100 1000 per-bit
      cga_run $v 316x316 1000 per-bit
      cga_run $v 316x316 1000 per-bit --neighbourhood moore5
      cga_run $v 316x316 1000 skip
      cga_run $v 1000x1000 1000 per-bit
      cga_run $v 1000x1000 1000 skip
      cga_run $v 1000x1000 1000 per-bit --neighbourhood moore5
    done
  done >> "$out/barrier.csv"
  best_ms "$out/barrier.csv" grid generations mutation options variant
  friedman_runs
  ;;
base)
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/base.csv"
  for r in 1 2 3; do
    for v in glevo glevo_vnone glevo_vnonenored glevo_vnonenofold glevo_vnonenofit glevo_vcopy glevo_vnored glevo_vnofold; do
      cga_run $v 1000x1000 1000 skip
    done
    cga_run glevo 1000x1000 1000 skip --profile
  done >> "$out/base.csv"
  best_ms "$out/base.csv" mutation variant
  "$g" cga --problem camel --grid 1000x1000 --generations 1000 --mutation skip --report-every 1000 \
    --backend compute --quiet --profile > "$out/profile_skip.txt" 2>&1
  "$g" cga --problem camel --grid 8x8 --generations 1000 --block-depth 0 --report-every 1000 \
    --backend compute --quiet --profile > "$out/profile_8x8.txt" 2>&1
  cat "$out/profile_skip.txt" "$out/profile_8x8.txt"
  ;;
reduce)
  same_cga glevo glevo_vkey same_key.txt "1000x1000 30 skip" "1000x1000 20 per-bit" "1000x1000 20 skip --neighbourhood moore5" \
           "100x100 40 per-bit --block-depth 0" "130x66 40 skip --block-depth 0" \
           "200x200 30 per-bit --block-depth 0 --problem rastrigin --dim 6"
  at_million reduce.csv glevo glevo_vkey glevo_vnogenes glevo_vnored
  ;;
last)
  same_cga glevo glevo_vlast same_last.txt "1000x1000 30 skip" "1000x1000 20 per-bit" "1000x1000 20 skip --neighbourhood moore5" \
           "100x100 40 per-bit --block-depth 0" "130x66 40 skip --block-depth 0" \
           "200x200 30 per-bit --block-depth 0 --problem rastrigin --dim 6"
  for v in last key; do
    GLEVO_SHADER_DIR=$PWD/$dir/sh-$v timeout 200 "$dir/test_cga_fused" > "$out/fused_$v.log" 2>&1
    echo "test_cga_fused sh-$v rc $?"
  done
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/last.csv"
  for r in 1 2 3; do
    for v in glevo glevo_vkey glevo_vlast; do
      cga_run $v 1000x1000 1000 skip
      cga_run $v 1000x1000 1000 per-bit
      cga_run $v 1000x1000 1000 per-bit --neighbourhood moore5
    done
  done >> "$out/last.csv"
  best_ms "$out/last.csv" mutation options variant
  ;;
final)
  suites "test_[cr][ge]*" suites.log
  cat "$out/suites.log"
  OUT=$out/cga docs/results/h200-2026-11-28-cga-philox-gp-restarts/run.sh "$dir" cga
  ;;
rows)
  for c in "1000x1000 30 skip" "1000x1000 20 per-bit" "130x66 40 skip --block-depth 0 --neighbourhood moore5"; do
    # shellcheck disable=SC2086 # c splits into grid, generations, mutation and options
    set -- $c
    for r in 8 4 16 32; do
      GLEVO_CGA_ROWS=$r "$g" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" --quiet \
        --checkpoint "$out/r$r.ckpt" --overwrite --backend compute "${@:4}" > /dev/null
      [ $r = 8 ] || same_end "$out/r8.ckpt" "$out/r$r.ckpt" "rows $r: $c"
    done
  done | tee "$out/same_rows.txt"
  rm -f "$out"/*.ckpt
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/rows.csv"
  for _ in 1 2 3; do
    for r in 4 8 16 32; do
      for m in skip per-bit; do
        GLEVO_CGA_ROWS=$r cga_run glevo 1000x1000 1000 $m --seed $((100 + r))
      done
    done
  done >> "$out/rows.csv"
  best_ms "$out/rows.csv" mutation options
  ;;
tile)
  same_cga glevo_old glevo same_tile.txt "1000x1000 30 skip" "1000x1000 20 per-bit" "1000x1000 20 per-bit --neighbourhood moore5" \
           "1000x1000 20 skip --neighbourhood von-neumann" "316x316 40 per-bit --block-depth 0" \
           "100x100 40 skip --neighbourhood moore5 --block-depth 0" "8x5 30 per-bit --neighbourhood moore5 --block-depth 0" \
           "2x1 30 per-bit --neighbourhood moore5 --block-depth 0"
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/tile.csv"
  for r in 1 2 3; do
    for v in glevo_old glevo; do
      cga_run $v 1000x1000 1000 per-bit
      cga_run $v 1000x1000 1000 skip
      cga_run $v 1000x1000 1000 per-bit --neighbourhood moore5
      cga_run $v 1000x1000 1000 per-bit --neighbourhood von-neumann
      cga_run $v 1000x1000 1000 skip --neighbourhood moore5
      cga_run $v 2000x2000 200 skip
      cga_run $v 316x316 1000 per-bit --block-depth 0
    done
  done >> "$out/tile.csv"
  best_ms "$out/tile.csv" grid mutation options variant
  suites "test_cga_*" suites_cga.log
  cat "$out/suites_cga.log"
  ;;
gp)
  suites "${SUITES:-test_gp_portfolio}" suites_gp.log
  cat "$out/suites_gp.log"
  friedman_runs
  ;;
*)
  echo "$0: unknown mode '$mode' (torus, plans, plans2, parts, barrier, base, reduce, last, final, rows, tile, gp)" >&2
  exit 2
  ;;
esac
