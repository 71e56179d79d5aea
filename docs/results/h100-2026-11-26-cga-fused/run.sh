#!/usr/bin/env bash
# 2026-11-26 on the GPU machine: the cGA's one-generation path, its local memory and one fused
# dispatch a generation (issue 25).
# Results: docs/results/h100-2026-11-26-cga-fused/ and docs/performance-history.md ("2026-11-26: the cGA's one-generation path").
#   . .gl/env.sh && docs/results/h100-2026-11-26-cga-fused/run.sh DIR MODE [OLD_SHADERS]
# DIR holds glevo, the test binaries the mode runs and lib/ (libsubunit); MODE is
#   cga-lmem  the cGA kernels' shared and local memory (GLEVO_DUMP_PROGRAMS) -> programs_*.txt,
#             then best of three runs (camel, compute, --report-every = the generations) of
#             the grids of issue 25 with the embedded shaders ("new") and, where OLD_SHADERS
#             names a shader tree, with it (GLEVO_SHADER_DIR, "old") -> cga_lmem.csv; the
#             end states of both compared byte for byte (checkpoints) -> bitwise.txt;
#             --profile at 1000x1000 -> profile_*.txt; the cGA suites -> suites_cga.log.
#   cga-warm  64x64 x 200 (the rule), ten processes one after another: alone, while another
#             process keeps the GPU busy (a long 2000x2000 run), and with a second's pause
#             after each, without NVIDIA's shader disk cache (__GL_SHADER_DISK_CACHE=0), and
#             2000 generations with and without it; with the GPU's clock before each ->
#             cga_warm.csv; and ten runs in one process (glevo bench cga)
#   final     the landed build: the cGA suites -> suites_cga.log; best of three processes of the
#             rule at issue 25's grids, other neighbourhoods and a user GLSL fitness, and
#             per-bit at 10^6 with the fitness dispatch scoring (GLEVO_CGA_FUSED=fitness) ->
#             final.csv; the JAX peer (OLD_SHADERS: the peers' folder) -> jax.jsonl and
#             `glevo bench cga --peer` beside it -> peer/
#   cga-parts the one-generation path at 1000x1000 with parts of it left out (wrong runs, for
#             time only): OLD_SHADERS is a folder of shader trees (base, nomut, nosel, ...);
#             --profile's table of 200 generations for each tree and mutation -> parts.txt.
#   cga-fused the fused one-generation path (one dispatch a generation) against the plain one
#             (GLEVO_CGA_FUSED=0; =1 scores skip mutation's children in the kernel too) in the
#             same binary (before 03:40 UTC: a variant "tree", GLEVO_CGA_SHUFFLE=0, in place of
#             "one"): best of three runs of the grids of issue
#             25 with --block-depth 0 and of the rule -> cga_fused.csv; --profile at 1000x1000
#             -> profile_*.txt; end states compared (checkpoints) -> bitwise.txt; the cGA
#             suites -> suites_cga.log; the JAX peer -> jax.jsonl.
set -u
mode=$2 old=${3:-}
. scripts/device/calls-lib.sh "$1"

# the environment of a variant: old -> the shader tree OLD_SHADERS, new -> the embedded shaders
shaders() { if [ "$1" = old ]; then echo "GLEVO_SHADER_DIR=$old"; else echo "X=1"; fi; }

# variant (old|new) grid generations mutation [options] -> a CSV row
cga_run() {
  local v=$1 grid=$2 n=$3 m=$4 js
  shift 4
  js=$(env $(shaders "$v") "$g" cga --problem camel --grid "$grid" \
       --generations "$n" --mutation "$m" --report-every "$n" --backend compute --json --quiet "$@")
  python3 -c "import json,sys; d=json.loads(sys.argv[1]); print('$v,$grid,$n,$m,$*,%.6f,%s' % (d['seconds'], d['best_fitness']))" \
    "${js:-null}" 2>/dev/null || echo "$v,$grid,$n,$m,$*,failed,"
}

case $mode in
cga-lmem)
  variants=new; [ -n "$old" ] && variants="old new"
  mkdir -p "$out/programs"
  for v in $variants; do
    for m in per-bit skip; do
      env $(shaders "$v") GLEVO_DUMP_PROGRAMS="$out/programs" "$g" cga \
        --grid 1000x1000 --generations 2 --mutation "$m" --backend compute --quiet > /dev/null
      env $(shaders "$v") GLEVO_DUMP_PROGRAMS="$out/programs" "$g" cga \
        --grid 100x100 --generations 16 --mutation "$m" --backend compute --quiet > /dev/null
    done
    for f in "$out"/programs/cga.*.bin; do
      echo "$(basename "$f"): $(strings "$f" | grep -E "lmem0\[[0-9]+\];|SHARED_MEMORY" | tr '\n' ' ')"
    done > "$out/programs_$v.txt"
    rm -f "$out"/programs/*
  done
  rm -rf "$out/programs"
  cat "$out"/programs_*.txt
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/cga_lmem.csv"
  for v in $variants; do cga_run "$v" 64x64 10 per-bit > /dev/null; done # shader caches
  for r in 1 2 3; do
    for v in $variants; do
      cga_run "$v" 1000x1000 1000 per-bit; cga_run "$v" 1000x1000 1000 skip
      cga_run "$v" 1000x1000 1000 per-bit --block-depth 1 --block-tile 32x16
      cga_run "$v" 64x64 200 per-bit; cga_run "$v" 100x100 1000 per-bit
      cga_run "$v" 316x316 1000 per-bit; cga_run "$v" 100x100 1000 skip --neighbourhood moore5
    done
  done >> "$out/cga_lmem.csv"
  cat "$out/cga_lmem.csv"
  for v in $variants; do
    for m in per-bit skip; do
      env $(shaders "$v") "$g" cga --grid 1000x1000 --generations 200 \
        --mutation "$m" --backend compute --profile --quiet > /dev/null 2> "$out/profile_${v}_$m.txt"
    done
  done
  tail -n +1 "$out"/profile_*.txt
  if [ -n "$old" ]; then
    for cfg in "64x64 moore per-bit auto" "100x100 von-neumann skip auto" "130x66 moore5 per-bit auto" \
               "1000x1000 moore per-bit 0" "316x316 moore skip 0" "130x66 moore5 skip 4"; do
      set -- $cfg
      depth=(); [ "$4" != auto ] && depth=(--block-depth "$4")
      for v in old new; do
        rm -f "$out/ck_$v.glevo"
        env $(shaders "$v") "$g" cga --problem ackley --dim 5 --grid "$1" \
          --neighbourhood "$2" --mutation "$3" "${depth[@]}" --generations 120 \
          --report-every 37 --backend compute --quiet --checkpoint "$out/ck_$v.glevo" > /dev/null
      done
      same_end "$out/ck_old.glevo" "$out/ck_new.glevo" "$cfg"
    done > "$out/bitwise.txt"
    rm -f "$out"/ck_*.glevo
    cat "$out/bitwise.txt"
  fi
  suites 'test_cga_*' suites_cga.log
  cat "$out/suites_cga.log"
  ;;
cga-fused)
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/cga_fused.csv"
  cga_run plain 64x64 10 per-bit > /dev/null
  for r in 1 2 3; do
    for v in plain one fused; do
      # plain: three dispatches; one: the rule's one-generation path (--block-depth 0); fused:
      # the kernel scores the children with skip mutation too
      export GLEVO_CGA_FUSED=1
      [ $v = plain ] && export GLEVO_CGA_FUSED=0
      [ $v = one ] && unset GLEVO_CGA_FUSED
      cga_run $v 1000x1000 1000 per-bit --block-depth 0; cga_run $v 1000x1000 1000 skip --block-depth 0
      cga_run $v 1000x1000 1000 per-bit --block-depth 0 --neighbourhood moore5
      cga_run $v 1000x1000 1000 skip --block-depth 0 --neighbourhood von-neumann
      cga_run $v 316x316 1000 per-bit --block-depth 0; cga_run $v 100x100 1000 per-bit --block-depth 0
      cga_run $v 64x64 200 per-bit --block-depth 0
      unset GLEVO_CGA_FUSED GLEVO_CGA_SHUFFLE
    done
    cga_run rule 64x64 200 per-bit; cga_run rule 100x100 1000 per-bit; cga_run rule 316x316 1000 per-bit
  done >> "$out/cga_fused.csv"
  cat "$out/cga_fused.csv"
  for k in "GLEVO_CGA_FUSED=0" "GLEVO_CGA_FUSED=0 GLEVO_CGA_SHUFFLE=0" "GLEVO_CGA_FUSED=1" \
           "GLEVO_CGA_FUSED=1 GLEVO_CGA_SHUFFLE=0"; do
    for m in per-bit skip; do
      env $k "$g" cga --grid 1000x1000 --generations 200 --mutation "$m" --backend compute \
        --profile --quiet > /dev/null 2> "$out/profile_$(echo $k | tr ' =' '_-')_$m.txt"
    done
  done
  tail -n +1 "$out"/profile_*.txt
  printf 'vec4 problem_init() { return vec4(0.0); }\nvec4 problem_step(vec4 acc, int j, float x) { precise vec4 r = acc + vec4(x * x - cos(6.0 * x)); return r; }\nfloat problem_finish(vec4 acc, int dim) { return acc.x; }\n' > "$out/user.glsl"
  for cfg in "camel 1000x1000 moore per-bit" "ackley 500x300 moore5 skip" "rastrigin 700x400 von-neumann per-bit" \
             "user 600x600 moore per-bit" "schwefel 640x480 moore skip"; do
    set -- $cfg
    problem=(--problem "$1" --dim 6); [ "$1" = camel ] && problem=(--problem camel)
    [ "$1" = user ] && problem=(--fitness "$out/user.glsl" --dim 3 --lower -3 --upper 3)
    for k in 0 1; do
      rm -f "$out/ck_$k.glevo"
      GLEVO_CGA_FUSED=$k "$g" cga "${problem[@]}" --grid "$2" --neighbourhood "$3" --mutation "$4" \
        --generations 300 --report-every 137 --block-depth 0 --backend compute --quiet \
        --checkpoint "$out/ck_$k.glevo" > /dev/null
    done
    same_end "$out/ck_0.glevo" "$out/ck_1.glevo" "$cfg"
  done > "$out/bitwise.txt"
  rm -f "$out"/ck_*.glevo
  cat "$out/bitwise.txt"
  suites 'test_cga_*' suites_cga.log
  cat "$out/suites_cga.log"
  if [ -n "$old" ]; then
    timeout 240 python3 "$old/cga_jax.py" 64 64 200 100 100 1000 316 316 1000 1000 1000 1000 > "$out/jax.jsonl" 2> "$out/jax_err.txt"
    cat "$out/jax.jsonl"; tail -3 "$out/jax_err.txt"
  fi
  ;;
cga-warm)
  echo "busy,run,sm_clock_mhz,seconds" > "$out/cga_warm.csv"
  for busy in 0 1 pause nocache nocache2000 cache2000; do
    if [ $busy = 1 ]; then
      "$g" cga --grid 2000x2000 --generations 100000 --backend compute --quiet > /dev/null 2>&1 &
      bg=$!; sleep 2
    fi
    for r in 1 2 3 4 5 6 7 8 9 10; do
      clk=$(nvidia-smi --query-gpu=clocks.sm --format=csv,noheader,nounits 2>/dev/null | head -1)
      n=200; case $busy in *2000) n=2000;; esac
      c=1; case $busy in nocache*) c=0;; esac # NVIDIA's shader disk cache
      s=$(__GL_SHADER_DISK_CACHE=$c "$g" cga --grid 64x64 --generations $n --report-every $n \
            --backend compute --json --quiet | python3 -c "import json,sys; print(json.load(sys.stdin)['seconds'])")
      echo "$busy,$r,$clk,$s"
      [ $busy = pause ] && sleep 1
    done >> "$out/cga_warm.csv"
    [ $busy = 1 ] && kill $bg
  done
  cat "$out/cga_warm.csv"
  echo '{"peer": "none", "width": 64, "height": 64, "generations": 200, "seconds": 1.0}' > "$out/peer64.jsonl"
  "$g" bench cga --peer "$out/peer64.jsonl" --runs 10 --out "$out/bench64" --backend compute --quiet
  cat "$out/bench64/cga_peer.md"
  ;;
final)
  suites 'test_cga_*' suites_cga.log
  cat "$out/suites_cga.log"
  printf 'vec4 problem_init() { return vec4(0.0); }\nvec4 problem_step(vec4 acc, int j, float x) { precise vec4 r = acc + vec4(x * x - cos(6.0 * x)); return r; }\nfloat problem_finish(vec4 acc, int dim) { return acc.x; }\n' > "$out/user.glsl"
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/final.csv"
  cga_run rule 64x64 10 per-bit > /dev/null
  for r in 1 2 3; do
    cga_run rule 64x64 200 per-bit; cga_run rule 64x64 200 per-bit --report-every 25
    for grid in 100x100 316x316 1000x1000; do
      cga_run rule $grid 1000 per-bit; cga_run rule $grid 1000 skip
      cga_run rule $grid 1000 per-bit --neighbourhood von-neumann
      cga_run rule $grid 1000 per-bit --neighbourhood moore5
      cga_run rule $grid 1000 per-bit --fitness "$out/user.glsl" --lower -3 --upper 3
    done
    GLEVO_CGA_FUSED=fitness cga_run fitness 1000x1000 1000 per-bit
  done >> "$out/final.csv"
  cat "$out/final.csv"
  if [ -n "$old" ]; then
    timeout 240 python3 "$old/cga_jax.py" 64 64 200 100 100 1000 316 316 1000 1000 1000 1000 > "$out/jax.jsonl" 2> "$out/jax_err.txt"
    cat "$out/jax.jsonl"
    "$g" bench cga --peer "$out/jax.jsonl" --out "$out/peer" --backend compute --quiet
    cat "$out/peer/cga_peer.md"
  fi
  ;;
cga-parts)
  for m in per-bit skip; do
    for tree in "$old"/*/; do
      v=$(basename "$tree")
      for r in 1 2; do
        GLEVO_SHADER_DIR=$tree "$g" cga --grid 1000x1000 --generations 200 --mutation "$m" \
          --backend compute --block-depth 0 --profile --quiet > /dev/null 2> "$out/p.txt"
      done
      echo "== $v $m"; cat "$out/p.txt"
    done
  done > "$out/parts.txt"
  rm -f "$out/p.txt"
  cat "$out/parts.txt"
  ;;
*)
  echo "$0: unknown mode '$mode' (cga-lmem, cga-fused, cga-warm, final, cga-parts)" >&2
  exit 2
  ;;
esac
