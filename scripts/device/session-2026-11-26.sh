#!/usr/bin/env bash
# The session of 2026-11-26 on the GPU machine (issues 25 and 26). Results and what each call
# measured: docs/results/h100-2026-11-26/ and docs/performance.md ("2026-11-26").
#   . .gl/env.sh && scripts/device/session-2026-11-26.sh DIR MODE
# DIR holds glevo, the test binaries the mode runs and lib/ (libsubunit); MODE is
#   gp-fit   the GPU's limits (glevo info), every GP suite, then constant fitting's cost on
#            10 000 programs x 1000 cases (gp_sr_data.py), 20 generations, compute, mse:
#            fitting off, and at 1 and 4 iterations a work-group a program
#            (GLEVO_GP_FIT_CLAIM=0) and claimed by 1 to 4 subgroups a work-group
#            (GLEVO_GP_FIT_WARPS); seeds 2 and 3, each run twice and the second kept (a
#            seed's first run compiles its builds) -> constfit.jsonl; --profile's table of
#            the rule -> profile_fit1.txt.
set -u
dir=$1 mode=$2 out=${OUT:-out}
g=$dir/glevo
export LD_LIBRARY_PATH="$PWD/$dir/lib:${LD_LIBRARY_PATH:-}"
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$g"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1

suites() { # PATTERN LOG: each test binary of DIR matching PATTERN, pass or its failure's tail
  for t in "$dir"/$1; do
    if timeout 150 "$t" > "$out/t.txt" 2>&1; then echo "$(basename "$t") pass"; else
      echo "$(basename "$t") FAIL"; tail -20 "$out/t.txt"; fi
  done > "$out/$2"
  rm -f "$out/t.txt"
}

fit() { # VARIANT SEED [VAR=VALUE ...] -- [OPTIONS]: one whole run, twice, the second's JSON kept
  local v=$1 s=$2 js r e=()
  shift 2
  while [ "$1" != -- ]; do e+=("$1"); shift; done
  shift
  for r in 1 2; do
    js=$(env "${e[@]}" "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 \
         --max-size 64 --metric mse --backend compute --seed "$s" --quiet --json "$@")
  done
  echo "{\"variant\":\"$v\",\"seed\":$s,\"run\":${js:-null}}" >> "$out/constfit.jsonl"
  python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('$v', $s, r['seconds'], r.get('best_error'))" "${js:-null}" 2>/dev/null
}

case $mode in
gp-fit)
  "$g" info > "$out/info.txt" 2>&1
  cat "$out/info.txt"
  suites 'test_gp_*' suites_gp.log
  grep -c pass "$out/suites_gp.log"; grep -A20 FAIL "$out/suites_gp.log"
  mkdir -p "$out/data"
  python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
  for s in 2 3; do
    fit off "$s" X=1 -- --const-opt 0
    for it in 1 4; do
      fit "group$it" "$s" GLEVO_GP_FIT_CLAIM=0 -- --const-opt "$it"
      for w in 1 2 3 4; do fit "claim${w}w$it" "$s" GLEVO_GP_FIT_WARPS=$w -- --const-opt "$it"; done
    done
    for n in 264 4096; do fit "claim4w1g$n" "$s" GLEVO_GP_FIT_GROUPS=$n -- --const-opt 1; done
  done
  for r in 1 2; do
    "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 20 --max-size 64 --metric mse \
      --backend compute --seed 2 --quiet --const-opt 1 --profile > /dev/null 2> "$out/profile_fit1.txt"
  done
  cat "$out/profile_fit1.txt"
  rm -rf "$out/data"
  ;;
*)
  echo "$0: unknown mode '$mode' (gp-fit)" >&2
  exit 2
  ;;
esac
