#!/usr/bin/env bash
# The late session of 2026-11-25 on the GPU machine, one call:
#   1. every GP suite (test_gp_*; the constant fitting's pass against its twin among them);
#   2. constant fitting's cost (issue 26): 10 000 programs x 1000 cases (gp_sr_data.py),
#      10 generations, compute, mse: fitting off, on at 1, 2, 4, 8 iterations walking
#      GP_FIT_CASES spread cases (the default), and at 1 and 4 on every case
#      (GLEVO_GP_FIT_ALL_CASES=1, the build before); a warm-up, seeds 2 and 3; then one run
#      with --profile -> $OUT/constfit.jsonl, $OUT/constfit_profile.txt;
#   3. the cGA's blocked kernel (issue 25), where a dispatch's time goes: camel, per-bit,
#      --profile's GPU time a dispatch and the whole run's seconds, over depths at fixed
#      tiles -> $OUT/cga_depths.csv, $OUT/cga_profile_*.txt.
#   . .gl/env.sh && scripts/device/session-2026-11-25-late.sh DIR first  (DIR: glevo, test_gp_*, lib)
# The second call (mode `second`):
#   4. constant fitting's cost over 50 generations (the shader builds a run compiles, from the
#      driver's cache, weigh less): off, spread 1, 2, 4 -> $OUT/constfit50.jsonl;
#   5. the blocked kernel's variants (best of three each): the shared tree's best (base), two
#      levels (GLEVO_CGA_BLOCK_BEST2), the mutation chunk unrolled (GLEVO_CGA_BLOCK_UNROLL),
#      both; and each phase's clock cycles (GLEVO_CGA_BLOCK_CLOCK, GL_ARB_shader_clock: group
#      0's phases, the last group's fold) -> $OUT/cga_variants.csv, $OUT/cga_clock.txt.
# The third call (mode `third`):
#   6. constant fitting's cost, each run twice and the second kept (a seed's first run
#      compiles the shader builds its programs' shapes need, ~1-2 s each, cold): 20
#      generations, off, spread 1, 2, 4, every case 1 -> $OUT/constfit20.jsonl;
#   7. what each part of the blocked kernel costs: the kernel with a part left out
#      (GLEVO_CGA_BLOCK_X=NOBEST,NOFOLD,NOMASK: wrong runs, timing only) -> cga_parts.csv and
#      the clock cycles -> cga_parts_clock.txt.
# The fourth call (mode `fourth`): the kernel with the bests found once a block and the fold
#   for every generation at once: the cGA suites, the scan of tiles and depths (best of three
#   each) -> $OUT/cga_scan4.csv, and the bit-for-bit checkpoints against one generation a
#   dispatch -> $OUT/bitwise4.txt.
# The fifth call (mode `fifth`): where a fit's time goes, by clock cycles (GLEVO_GP_FIT_CLOCK,
#   GL_ARB_shader_clock: each phase summed over the fitted programs) at 1 and 4 iterations ->
#   $OUT/constfit_clock.txt; then `cga-block.sh ... final` (the rule against one generation a
#   dispatch, best of three, the JAX peer, the bit-for-bit checks and the peer picture).
# The sixth call (mode `sixth`): the fitting pass with a 16-value stack in shared memory
#   (deeper programs not fitted) and two builds a run: the GP suites, the cost as in the third
#   call (each run twice, the second kept) -> constfit20b.jsonl, the phase clocks ->
#   constfit_clock_after.txt.
# The seventh call (mode `seventh`): --profile's GPU time a pass for fitting off and at 1
#   iteration (20 generations, the second of two runs) -> profile_fit{0,1}.txt.
# The eighth call (mode `eighth`): the two fitting dispatches without a barrier between them:
#   three GP suites, the cost (fitting off, 1, 2, 4 iterations; seeds 2, 3; 20 generations, the
#   second of two runs) -> constfit20c.jsonl, and --profile at 1 iteration -> profile_fit1c.txt.
set -u
dir=$1 mode=${2:-first} out=${OUT:-out}
g=$dir/glevo
export LD_LIBRARY_PATH="$PWD/$dir/lib:${LD_LIBRARY_PATH:-}"
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$g"
mkdir -p "$out/data"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
if [ "$mode" = eighth ]; then
  for t in test_gp_const_opt test_gp_same test_gp_engine; do
    if timeout 150 "$dir/$t" > "$out/t.txt" 2>&1; then echo "$t pass"; else echo "$t FAIL"; tail -20 "$out/t.txt"; fi
  done > "$out/suites8.log"
  rm -f "$out/t.txt"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3; do
    for it in 0 1 2 4; do
      for r in 1 2; do
        js=$("$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 \
             --metric mse --backend compute --seed "$s" --quiet --json --const-opt $it)
      done
      echo "{\"variant\":\"spread$it\",\"seed\":$s,\"run\":${js:-null}}" >> "$out/constfit20c.jsonl"
    done
  done
  "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 --metric mse \
    --backend compute --seed 2 --quiet --const-opt 1 --profile > /dev/null 2> "$out/profile_fit1c.txt"
  rm -rf "$out/data"
  exit 0
fi
if [ "$mode" = seventh ]; then
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for it in 0 1; do
    for r in 1 2; do
      "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 --metric mse \
        --backend compute --seed 2 --quiet --const-opt $it --profile > "$out/run_fit$it.txt" 2> "$out/profile_fit$it.txt"
    done
  done
  rm -rf "$out/data"
  exit 0
fi
if [ "$mode" = sixth ]; then
  for t in "$dir"/test_gp_*; do
    if timeout 150 "$t" > "$out/t.txt" 2>&1; then echo "$(basename "$t") pass"; else
      echo "$(basename "$t") FAIL"; tail -20 "$out/t.txt"; fi
  done > "$out/suites6.log"
  rm -f "$out/t.txt"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3; do
    for it in 0 1 2 4 8; do
      for r in 1 2; do
        js=$("$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 \
             --metric mse --backend compute --seed "$s" --quiet --json --const-opt $it)
      done
      echo "{\"variant\":\"spread$it\",\"seed\":$s,\"run\":${js:-null}}" >> "$out/constfit20b.jsonl"
    done
  done
  GLEVO_GP_FIT_CLOCK=1 "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 \
    --metric mse --backend compute --seed 2 --quiet --const-opt 1 > /dev/null 2> "$out/constfit_clock_after.txt"
  rm -rf "$out/data"
  exit 0
fi
if [ "$mode" = fifth ]; then
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for it in 1 4; do
    for r in 1 2; do
      GLEVO_GP_FIT_CLOCK=1 "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 \
        --metric mse --backend compute --seed 2 --quiet --const-opt $it > /dev/null 2> "$out/clk.txt"
    done
    echo "== --const-opt $it" >> "$out/constfit_clock.txt"; cat "$out/clk.txt" >> "$out/constfit_clock.txt"
  done
  rm -rf "$out/data" "$out/clk.txt"
  scripts/device/cga-block.sh "$g" final .peers > /dev/null 2>&1
  rm -f "$out"/err.txt "$out"/user.glsl "$out"/ck_*.glevo
  exit 0
fi
if [ "$mode" = fourth ]; then
  for t in "$dir"/test_cga_*; do
    if timeout 150 "$t" > "$out/t.txt" 2>&1; then echo "$(basename "$t") pass"; else
      echo "$(basename "$t") FAIL"; tail -20 "$out/t.txt"; fi
  done > "$out/suites4.log"
  rm -f "$out/t.txt"
  echo "grid,generations,mutation,tile,depth,seconds" > "$out/cga_scan4.csv"
  "$g" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null
  one() { # grid gens mutation tile depth
    local args=(cga --problem camel --grid $1 --generations $2 --report-every $2 --mutation $3 --backend compute --quiet --json)
    [ $5 != auto ] && args+=(--block-depth $5)
    [ $4 != auto ] && args+=(--block-tile $4)
    for r in 1 2 3; do
      "$g" "${args[@]}" | python3 -c "import json,sys; print('$1,$2,$3,$4,$5,'+str(json.load(sys.stdin)['seconds']))"
    done
  }
  {
    one 64x64 200 per-bit auto 0; one 64x64 200 per-bit auto auto
    for d in 3 4 5 6 8; do one 64x64 200 per-bit 8x4 $d; done
    for d in 3 4 6 8; do one 64x64 200 per-bit 8x8 $d; one 64x64 200 per-bit 16x8 $d; done
    one 100x100 1000 per-bit auto 0; one 100x100 1000 per-bit auto auto
    for d in 3 4 5 6 8; do one 100x100 1000 per-bit 16x8 $d; done
    for d in 4 6 8; do one 100x100 1000 per-bit 8x8 $d; one 100x100 1000 per-bit 16x16 $d; done
    one 100x100 1000 skip auto 0; one 100x100 1000 skip auto auto
    one 316x316 1000 per-bit auto 0; one 316x316 1000 per-bit auto auto
    for d in 1 2 3 4; do one 316x316 1000 per-bit 16x8 $d; one 316x316 1000 per-bit 32x16 $d; done
    one 316x316 1000 per-bit 16x16 2; one 316x316 1000 per-bit 16x16 4
    one 1000x1000 1000 per-bit auto 0; one 1000x1000 1000 skip auto 0
    for d in 1 2; do one 1000x1000 1000 per-bit 32x16 $d; one 1000x1000 1000 skip 32x16 $d; done
  } >> "$out/cga_scan4.csv"
  printf 'vec4 problem_init() { return vec4(0.0); }\nvec4 problem_step(vec4 acc, int j, float x) { return acc + vec4(x * x - cos(6.0 * x)); }\nprecise float problem_finish(vec4 acc, int dim) { return acc.x; }\n' > "$out/user.glsl"
  for cfg in "camel 64x64 moore per-bit" "camel 100x100 von-neumann skip" "ackley 130x66 moore5 per-bit" \
             "rastrigin 316x316 moore skip" "schwefel 40x30 moore skip" "camel 100x100 moore per-bit"; do
    set -- $cfg
    for depth in auto 4 0; do
      rm -f "$out/ck_$depth.glevo"
      extra=(); [ $depth != auto ] && extra=(--block-depth $depth)
      [ $depth = 4 ] && extra+=(--block-tile 4x2)
      "$g" cga --problem $1 --grid $2 --neighbourhood $3 --mutation $4 --generations 300 \
        --report-every 37 --backend compute --quiet --checkpoint "$out/ck_$depth.glevo" "${extra[@]}" > /dev/null 2>>"$out/err.txt"
    done
    for depth in auto 4; do
      if [ ! -s "$out/ck_$depth.glevo" ]; then echo "REFUSED: $cfg depth $depth"
      elif cmp -s <(tail -c +161 "$out/ck_$depth.glevo" | head -c -4) <(tail -c +161 "$out/ck_0.glevo" | head -c -4); then
        echo "SAME: $cfg depth $depth"; else echo "DIFFERS: $cfg depth $depth"; fi
    done
  done > "$out/bitwise4.txt"
  rm -f "$out"/ck_*.glevo
  exit 0
fi
if [ "$mode" = third ]; then
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  fit20() { # variant seed env [options]
    local v=$1 s=$2 e=$3 js
    shift 3
    for r in 1 2; do
      js=$(env "$e" "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 \
           --metric mse --backend compute --seed "$s" --quiet --json "$@")
    done
    echo "{\"variant\":\"$v\",\"seed\":$s,\"run\":${js:-null}}" >> "$out/constfit20.jsonl"
  }
  for s in 2 3; do
    for it in 0 1 2 4; do fit20 "spread$it" "$s" X=1 --const-opt "$it"; done
    fit20 all1 "$s" GLEVO_GP_FIT_ALL_CASES=1 --const-opt 1
  done
  rm -rf "$out/data"
  echo "grid,generations,tile,depth,left_out,seconds" > "$out/cga_parts.csv"
  "$g" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null
  for cfg in "64x64 200 8x4 4" "100x100 1000 16x8 2" "100x100 1000 16x8 4" "316x316 1000 16x8 1"; do
    set -- $cfg
    for x in none NOBEST NOFOLD NOMASK NOBEST,NOFOLD NOBEST,NOFOLD,NOMASK; do
      for r in 1 2 3; do
        GLEVO_CGA_BLOCK_X=${x#none} "$g" cga --problem camel --grid $1 --generations $2 --report-every $2 --backend compute \
          --quiet --block-tile $3 --block-depth $4 --json | python3 -c "import json,sys; print('$1,$2,$3,$4,${x//,/+},'+str(json.load(sys.stdin)['seconds']))"
      done >> "$out/cga_parts.csv"
      echo "== $cfg $x" >> "$out/cga_parts_clock.txt"
      GLEVO_CGA_BLOCK_X=${x#none} GLEVO_CGA_BLOCK_CLOCK=1 "$g" cga --problem camel --grid $1 --generations $2 --report-every $2 \
        --backend compute --quiet --block-tile $3 --block-depth $4 2>&1 > /dev/null | grep -E "best |masks|pairs|fold |total" >> "$out/cga_parts_clock.txt"
    done
  done
  exit 0
fi
if [ "$mode" = second ]; then
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  fit50() { # variant seed env [options]
    local v=$1 s=$2 e=$3 js
    shift 3
    js=$(env "$e" "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 50 --max-size 64 \
         --metric mse --backend compute --seed "$s" --quiet --json "$@")
    echo "{\"variant\":\"$v\",\"seed\":$s,\"run\":${js:-null}}" >> "$out/constfit50.jsonl"
  }
  fit50 warmup 1 X=1 --const-opt 4
  for s in 2 3; do for it in 0 1 2 4; do fit50 "spread$it" "$s" X=1 --const-opt "$it"; done; done
  rm -rf "$out/data"
  echo "grid,generations,tile,depth,variant,seconds" > "$out/cga_variants.csv"
  "$g" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null
  for cfg in "64x64 200 8x4 4" "64x64 200 8x4 3" "100x100 1000 16x8 2" "100x100 1000 16x8 4" "316x316 1000 16x8 1"; do
    set -- $cfg
    for name in base best2 unroll both; do
      case $name in
        base) envs=(X=1) ;; best2) envs=(GLEVO_CGA_BLOCK_BEST2=1) ;;
        unroll) envs=(GLEVO_CGA_BLOCK_UNROLL=1) ;; both) envs=(GLEVO_CGA_BLOCK_BEST2=1 GLEVO_CGA_BLOCK_UNROLL=1) ;;
      esac
      for r in 1 2 3; do
        env "${envs[@]}" "$g" cga --problem camel --grid $1 --generations $2 --report-every $2 --backend compute \
          --quiet --block-tile $3 --block-depth $4 --json | python3 -c "import json,sys; print('$1,$2,$3,$4,$name,'+str(json.load(sys.stdin)['seconds']))"
      done >> "$out/cga_variants.csv"
      echo "== $cfg $name" >> "$out/cga_clock.txt"
      env "${envs[@]}" GLEVO_CGA_BLOCK_CLOCK=1 "$g" cga --problem camel --grid $1 --generations $2 --report-every $2 \
        --backend compute --quiet --block-tile $3 --block-depth $4 > /dev/null 2>> "$out/cga_clock.txt"
    done
  done
  exit 0
fi
for t in "$dir"/test_gp_*; do
  if timeout 150 "$t" > "$out/t.txt" 2>&1; then echo "$(basename "$t") pass"; else
    echo "$(basename "$t") FAIL"; tail -20 "$out/t.txt"; fi
done > "$out/suites.log"
rm -f "$out/t.txt"

python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
fit() { # variant seed env [options]
  local v=$1 s=$2 e=$3 t0 t1 js
  shift 3
  t0=$(date +%s.%N)
  js=$(env "$e" "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 10 --max-size 64 \
       --metric mse --backend compute --seed "$s" --quiet --json "$@")
  t1=$(date +%s.%N)
  echo "{\"variant\":\"$v\",\"seed\":$s,\"wall\":$(awk "BEGIN{print $t1 - $t0}"),\"run\":${js:-null}}" >> "$out/constfit.jsonl"
}
fit warmup 1 X=1 --const-opt 4
fit warmup-all 1 GLEVO_GP_FIT_ALL_CASES=1 --const-opt 4
for s in 2 3; do
  fit off "$s" X=1 --const-opt 0
  for it in 1 2 4 8; do fit "spread$it" "$s" X=1 --const-opt "$it"; done
  for it in 1 4; do fit "all$it" "$s" GLEVO_GP_FIT_ALL_CASES=1 --const-opt "$it"; done
done
"$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 10 --max-size 64 --metric mse \
  --backend compute --seed 2 --quiet --const-opt 1 --profile > /dev/null 2> "$out/constfit_profile.txt"
rm -rf "$out/data"

echo "grid,generations,tile,depth,seconds,profile_dispatches,profile_us_per_dispatch" > "$out/cga_depths.csv"
cga() { # grid gens tile depth
  local args=(cga --problem camel --grid "$1" --generations "$2" --report-every "$2" --backend compute
              --quiet --block-depth "$4")
  [ "$4" != 0 ] && args+=(--block-tile "$3")
  local best=9 s
  for r in 1 2 3; do
    s=$("$g" "${args[@]}" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
    best=$(awk "BEGIN{print ($s < $best) ? $s : $best}")
  done
  "$g" "${args[@]}" --profile > /dev/null 2> "$out/cga_profile_$1_$3_$4.txt"
  local p=$(awk '/^cga.block/{print $2","$4}' "$out/cga_profile_$1_$3_$4.txt")
  echo "$1,$2,$3,$4,$best,${p:-one-generation}"
}
"$g" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null
{
  for d in 0 1 2 3 4 6; do cga 64x64 200 8x4 $d; done
  for d in 1 2 3; do cga 64x64 200 16x8 $d; done
  for d in 0 1 2 3 4; do cga 100x100 1000 16x8 $d; done
  for d in 0 1 2; do cga 316x316 1000 16x8 $d; done
  for d in 1 2; do cga 316x316 1000 32x16 $d; done
} >> "$out/cga_depths.csv"
