#!/usr/bin/env bash
# The fifteenth session (2026-11-28) on the GPU machine. Results: docs/results/h200-2026-11-28c/.
#   . .gl/env.sh && scripts/device/session-2026-11-28c.sh DIR MODE
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
set -u
mode=$2
. scripts/device/session-lib.sh "$1"

case $mode in
torus)
  for c in "1000x1000 20 per-bit" "1000x1000 30 skip" "1000x1000 20 per-bit --neighbourhood moore5" \
           "1000x1000 20 skip --neighbourhood von-neumann" "316x316 40 per-bit --block-depth 0" \
           "100x100 40 skip --neighbourhood moore5 --block-depth 0" "8x5 30 per-bit --neighbourhood moore5 --block-depth 0"; do
    # shellcheck disable=SC2086 # c splits into grid, generations, mutation and options
    set -- $c
    for v in glevo_oldsh glevo; do
      "$dir/$v" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" --quiet \
        --checkpoint "$out/$v.ckpt" --overwrite --backend compute "${@:4}" > /dev/null
    done
    same_end "$out/glevo_oldsh.ckpt" "$out/glevo.ckpt" "$c"
  done | tee "$out/same.txt"
  rm -f "$out"/*.ckpt
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
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/parts.csv"
  for r in 1 2 3; do
    for v in glevo glevo_nosel glevo_nomut glevo_nocut glevo_noscore glevo_none; do
      cga_run $v 1000x1000 1000 skip
      cga_run $v 1000x1000 1000 per-bit
    done
  done >> "$out/parts.csv"
  best_ms "$out/parts.csv" mutation variant
  ;;
barrier)
  for c in "1000x1000 30 skip" "1000x1000 20 per-bit" "316x316 40 per-bit --neighbourhood moore5" \
           "100x100 40 per-bit" "8x8 40 per-bit --block-depth 0"; do
    # shellcheck disable=SC2086 # c splits into grid, generations, mutation and options
    set -- $c
    for v in glevo_old glevo; do
      "$dir/$v" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" --quiet \
        --checkpoint "$out/$v.ckpt" --overwrite --backend compute "${@:4}" > /dev/null
    done
    same_end "$out/glevo_old.ckpt" "$out/glevo.ckpt" "$c"
  done | tee "$out/same.txt"
  rm -f "$out"/*.ckpt
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
  echo "variant,seed,seconds,best_fitness" > "$out/gp.csv"
  for s in 1 2 3; do
    for r in 1 2 3; do
      for v in glevo_old glevo; do
        js=$("$dir/$v" gp --data "$dir/data/friedman-1.csv" --pop 2000 --generations 100 --backend compute \
             --seed "$s" --quiet --json)
        python3 -c "import json,sys; d=json.loads(sys.argv[1]); print('$v,$s,%.6f,%s' % (d['seconds'], d['best_fitness']))" "${js:-null}" 2>/dev/null || echo "$v,$s,failed,"
      done
    done
  done >> "$out/gp.csv"
  best_ms "$out/gp.csv" seed variant
  ;;
*)
  echo "$0: unknown mode '$mode' (torus, plans, plans2, parts, barrier)" >&2
  exit 2
  ;;
esac
