#!/usr/bin/env bash
# 2026-11-26 on the GPU machine: two-channel cGA genes (issue 25) and constant fitting's cost as
# a default (issue 26).
# Results: docs/results/h100-2026-11-26-cga-narrow-gp-fitcost/ and docs/symbolic-regression-bench.md.
#   . .gl/env.sh && docs/results/h100-2026-11-26-cga-narrow-gp-fitcost/run.sh DIR MODE
# DIR holds glevo and lib/; MODE is
#   sr-fit   constant fitting's cost on 10 000 programs x 1000 cases (as docs/results/h100-2026-11-26-gp-constfit/run.sh's
#            gp-fit: a generation = (T(120) - T(20)) / 100, seeds 2-4, the second of two runs)
#            for each candidate setting, alone on the GPU -> constfit.jsonl; then the srbench
#            harness (scripts/srbench/run.py) on the compute backend, 30 seeds (glevo and data
#            seeds 200..229), Nguyen and Friedman-1 for every setting, Keijzer for three, 14
#            glevo processes at once -> sr/NAME/{runs.csv,summary.md}.
#   sr-cpu   the srbench harness on the CPU backend (the twin's arithmetic), 15 processes at
#            once, 30 seeds (SR_SEED.., default 200..229): Friedman-1 for every SR_FRIEDMAN setting, Nguyen for
#            every SR_NGUYEN one, Keijzer for every SR_KEIJZER one (names from settings and
#            probes) -> sr.tgz (sr/NAME/).
#   fit-cost as sr-fit's cost part for the FIT_SETTINGS named (settings and probes).
#   cga-narrow  the cGA's gene textures at two channels for camel (RG32F) against the build
#            before (DIR/glevo_old, RGBA32F): every cGA suite (DIR/test_cga_*); old and new
#            runs' checkpoints the same run; best of three processes each at the issue's grids
#            (camel, compute) -> narrow.csv; the JAX peer (DIR/peers/cga_jax.py) -> jax.jsonl.
set -u
mode=$2
. scripts/device/calls-lib.sh "$1"

# name: options (the candidates for issue 26's default, and references)
settings=(
  "off:"
  "f8:--const-opt 8"
  "f8_02:--const-opt 8 --const-opt-fraction 0.02"
  "f8_05:--const-opt 8 --const-opt-fraction 0.05"
  "f4_04:--const-opt 4 --const-opt-fraction 0.04"
  "f2_07:--const-opt 2 --const-opt-fraction 0.07"
  "f1:--const-opt 1"
)
# Quality only: references and probes of the search around the candidates.
probes=(
  "f8_02_ms100:--const-opt 8 --const-opt-fraction 0.02 --max-size 100"
  "main_set_sae:--metric sae --function-set +,-,*,/,neg,sin,cos"
  "main_set:--function-set +,-,*,/,neg,sin,cos"
  "main_set_f8:--function-set +,-,*,/,neg,sin,cos --const-opt 8"
  "f8_t7:--const-opt 8 --tournament 7"
  "f8_pm3:--const-opt 8 --pm 0.3"
  "f8_init4:--const-opt 8 --init-depth-max 4"
  "ms100:--max-size 100"
  "f1_ms100:--const-opt 1 --max-size 100"
  "f1_07_ms100:--const-opt 1 --const-opt-fraction 0.07 --max-size 100"
  "def:"
  "cp0:--const-prob 0"
  "cp10:--const-prob 0.1"
  "init4:--init-depth-max 4"
  "pm3:--pm 0.3"
  "t2:--tournament 2"
  "koza:--function-set +,-,*,/,sin,cos,exp,log"
  "arith:--function-set +,-,*,/,neg,sin,cos"
  "par001:--parsimony 0.001"
)

setting() { # NAME -> its options
  local kv
  for kv in "${settings[@]}" "${probes[@]}"; do [ "${kv%%:*}" = "$1" ] && echo "${kv#*:}"; done
}

case $mode in
fit-cost)
  mkdir -p "$out/data"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3 4; do
    for n in 20 120; do
      for name in ${FIT_SETTINGS:-}; do
        # shellcheck disable=SC2046 # the options split into words
        constfit "$name" "$s" "$n" X=1 $(setting "$name")
      done
    done
  done
  rm -rf "$out/data"
  python3 - "$out/constfit.jsonl" <<'PY'
import json, sys, collections
t = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j["run"]: t[(j["variant"], j["seed"])][j["generations"]] = j["run"]["seconds"]
for (v, s), d in sorted(t.items()):
    if 20 in d and 120 in d: print("%s seed %d: %.2f ms a generation" % (v, s, 10 * (d[120] - d[20])))
PY
  ;;
sr-cpu)
  mkdir -p "$out/sr"
  export BACKEND=cpu JOBS=15 TIMEOUT=600
  for n in ${SR_FRIEDMAN:-}; do
    # shellcheck disable=SC2046 # the options split into words
    sr "fr_$n${SR_SEED:+_s$SR_SEED}" friedman1 $(setting "$n") --threads 1
  done
  for n in ${SR_NGUYEN:-}; do
    # shellcheck disable=SC2046
    sr "ng_$n" nguyen $(setting "$n") --threads 1
  done
  for n in ${SR_KEIJZER:-}; do
    # shellcheck disable=SC2046
    sr "kj_$n" keijzer $(setting "$n") --threads 1
  done
  tar -czf "$out/sr.tgz" -C "$out" sr && rm -rf "$out/sr" # few files come back
  ;;
cga-narrow)
  suites 'test_cga_*' suites_cga.log
  cat "$out/suites_cga.log"
  for c in "64x64 200 per-bit" "316x316 50 skip" "1000x1000 20 per-bit" "130x66 37 skip --neighbourhood moore5" \
           "100x100 40 per-bit --block-depth 0" "64x64 30 per-bit --backend fragment"; do
    # shellcheck disable=SC2086 # c splits into grid, generations, mutation and options
    set -- $c
    for v in glevo glevo_old; do
      "$dir/$v" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" --quiet \
        --checkpoint "$out/$v.ckpt" --overwrite --backend compute "${@:4}" > /dev/null
    done
    same_end "$out/glevo.ckpt" "$out/glevo_old.ckpt" "$c"
  done | tee "$out/same.txt"
  rm -f "$out"/*.ckpt
  echo "variant,grid,generations,mutation,options,seconds,best" > "$out/narrow.csv"
  cga_run glevo 64x64 10 per-bit > /dev/null; cga_run glevo_old 64x64 10 per-bit > /dev/null
  for r in 1 2 3; do
    for v in glevo_old glevo; do
      cga_run $v 64x64 200 per-bit
      for grid in 100x100 316x316 1000x1000; do
        cga_run $v $grid 1000 per-bit; cga_run $v $grid 1000 skip
      done
      cga_run $v 1000x1000 1000 per-bit --neighbourhood moore5
    done
  done >> "$out/narrow.csv"
  python3 - "$out/narrow.csv" <<'PY'
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
  [ -n "${NOJAX:-}" ] || timeout 200 python3 "$dir/peers/cga_jax.py" 64 64 200 100 100 1000 316 316 1000 1000 1000 1000 > "$out/jax.jsonl" 2> "$out/jax_err.txt"
  cat "$out/jax.jsonl"
  ;;
sr-fit)
  "$g" info > "$out/info.txt" 2>&1
  head -5 "$out/info.txt"
  mkdir -p "$out/data" "$out/sr"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3 4; do
    for n in 20 120; do
      for kv in "${settings[@]}"; do
        # shellcheck disable=SC2086 # the options split into words
        constfit "${kv%%:*}" "$s" "$n" X=1 ${kv#*:}
      done
    done
  done
  rm -rf "$out/data"
  for kv in "${settings[@]}" "${probes[@]}"; do
    # shellcheck disable=SC2086
    sr "${kv%%:*}" nguyen,friedman1 ${kv#*:}
  done
  for kv in "${settings[@]:0:3}"; do
    # shellcheck disable=SC2086
    sr "keijzer_${kv%%:*}" keijzer ${kv#*:}
  done
  ;;
*)
  echo "$0: unknown mode '$mode' (sr-fit, fit-cost, sr-cpu, cga-narrow)" >&2
  exit 2
  ;;
esac
