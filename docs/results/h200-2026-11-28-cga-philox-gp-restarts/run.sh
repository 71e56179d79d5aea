#!/usr/bin/env bash
# 2026-11-28 on the GPU machine: Philox's products (issue 25), the portfolio's restarts (issue 26). Results: docs/results/h200-2026-11-28-cga-philox-gp-restarts/.
#   . .gl/env.sh && docs/results/h200-2026-11-28-cga-philox-gp-restarts/run.sh DIR MODE
# philox (issue 25): Philox4x32-10's products as 64-bit multiplies (GL_ARB_gpu_shader_int64)
#   instead of umulExtended, a probe through GLEVO_SHADER_DIR. DIR holds glevo, lib/,
#   test_cga_fused and sh-int64/ (the shaders with the probe's Philox). Old and new runs' end
#   checkpoints the same run (same.txt); best of three processes each at the issue's grids
#   (philox.csv, one row a process); test_cga_fused with the probe's shaders.
# restart (issue 26): the portfolio's restarts. DIR holds glevo, glevo_old (15dc30b: no
#   restarts), lib/ and the GP test binaries: the GP suites matching SUITES (default test_gp_*;
#   skip: none) -> suites_gp.log; whole runs at the
#   defaults on the compute backend, old and new, best of three processes a seed (runs.jsonl):
#   Friedman-1 and Nguyen-9 (whose helpers restart), 2000 x 100.
# cga (issue 25): the issue's table on the H200, JAX in the same call. DIR holds glevo, lib/ and
#   peers/cga_jax.py: best of three `glevo cga` processes at the issue's grids (cga.csv, one row
#   a process), the JAX peer (jax.jsonl).
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

variant_env() { if [ "$1" = base ]; then echo "GLEVO_UNUSED=1"; else echo "GLEVO_SHADER_DIR=$PWD/$dir/$1"; fi; }

case $mode in
philox)
  for c in "1000x1000 20 per-bit" "1000x1000 30 skip" "316x316 40 per-bit" "100x100 40 per-bit --neighbourhood moore5"; do
    # shellcheck disable=SC2086 # c splits into grid, generations, mutation and options
    set -- $c
    for v in base sh-int64; do
      env "$(variant_env $v)" "$g" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" --quiet \
        --checkpoint "$out/$v.ckpt" --overwrite --backend compute "${@:4}" > /dev/null
    done
    same_end "$out/base.ckpt" "$out/sh-int64.ckpt" "$c"
  done | tee "$out/same.txt"
  rm -f "$out"/*.ckpt
  GLEVO_SHADER_DIR=$PWD/$dir/sh-int64 timeout 300 "$dir/test_cga_fused" > "$out/fused_int64.log" 2>&1; echo "test_cga_fused int64 rc $?"
  echo "variant,grid,generations,mutation,seconds" > "$out/philox.csv"
  for r in 1 2 3; do
    for v in base sh-int64; do
      for c in "64x64 200 per-bit" "100x100 1000 per-bit" "316x316 1000 per-bit" "1000x1000 1000 per-bit" "1000x1000 1000 skip"; do
        # shellcheck disable=SC2086
        set -- $c
        js=$(env "$(variant_env $v)" "$g" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" \
             --report-every "$2" --backend compute --json --quiet)
        python3 -c "import json,sys; print('$v,$1,$2,$3,%.6f' % json.loads(sys.argv[1])['seconds'])" "${js:-null}" 2>/dev/null || echo "$v,$1,$2,$3,failed"
      done
    done
  done >> "$out/philox.csv"
  best_ms "$out/philox.csv" grid generations mutation variant
  ;;
restart)
  if [ "${SUITES:-}" != skip ]; then
    suites "${SUITES:-test_gp_*}" suites_gp.log
    cat "$out/suites_gp.log"
  fi
  mkdir -p "$out/data"
  "$py" - "$out/data" <<'PY'
import sys
sys.path.insert(0, "scripts/srbench")
import suites
for suite, name in (("friedman1", "friedman-1"), ("nguyen", "nguyen-9")):
    t = [t for t in suites.SUITES[suite] if t.name == name][0]
    xtr, ytr, *_ = suites.draw(t, 201)
    with open("%s/%s.csv" % (sys.argv[1], name), "w") as f:
        f.write(",".join("x%d" % (i + 1) for i in range(xtr.shape[0])) + ",y\n")
        for c in range(xtr.shape[1]):
            f.write(",".join("%.9g" % v for v in xtr[:, c]) + ",%.9g\n" % ytr[c])
PY
  for data in friedman-1 nguyen-9; do
    for s in 1 2 3; do
      for v in glevo_old glevo; do
        for r in 1 2 3; do
          js=$("$dir/$v" gp --data "$out/data/$data.csv" --pop 2000 --generations 100 --backend compute \
               --seed "$s" --quiet --json)
          echo "{\"variant\":\"$v\",\"data\":\"$data\",\"seed\":$s,\"round\":$r,\"run\":${js:-null}}" >> "$out/runs.jsonl"
        done
      done
    done
  done
  rm -rf "$out/data"
  python3 - "$out/runs.jsonl" <<'PY'
import json, sys, collections
best = collections.defaultdict(lambda: float("inf"))
fit = {}
for line in open(sys.argv[1]):
    j = json.loads(line)
    r = j["run"] or {}
    k = (j["data"], j["seed"], j["variant"])
    best[k] = min(best[k], r.get("seconds", float("inf")))
    fit[k] = (r.get("best_fitness"), r.get("best_search"))
for d, s in sorted({k[:2] for k in best}):
    o, n = (d, s, "glevo_old"), (d, s, "glevo")
    print("%s seed %d: old %.3f s %s, new %.3f s %s" % (d, s, best[o], fit[o], best[n], fit[n]))
PY
  ;;
cga)
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/cga.csv"
  cga_run glevo 64x64 10 per-bit > /dev/null
  for r in 1 2 3; do
    cga_run glevo 64x64 200 per-bit
    for grid in 100x100 316x316 1000x1000; do
      cga_run glevo $grid 1000 per-bit; cga_run glevo $grid 1000 skip
    done
    for o in "--neighbourhood von-neumann" "--neighbourhood moore5" "--fitness data/examples/fitness.glsl --lower -3 --upper 3"; do
      # shellcheck disable=SC2086 # the options split into words
      cga_run glevo 316x316 1000 per-bit $o
      # shellcheck disable=SC2086
      cga_run glevo 1000x1000 1000 per-bit $o
    done
  done >> "$out/cga.csv"
  best_ms "$out/cga.csv" grid generations mutation options
  timeout 200 python3 "$dir/peers/cga_jax.py" 64 64 200 100 100 1000 316 316 1000 1000 1000 1000 > "$out/jax.jsonl" 2> "$out/jax_err.txt"
  cat "$out/jax.jsonl"
  ;;
*)
  echo "$0: unknown mode '$mode' (philox, restart, cga)" >&2
  exit 2
  ;;
esac
