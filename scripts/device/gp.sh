#!/usr/bin/env bash
# GP evaluation on the GPU machine (issue 13's goals), in one call of under 6 minutes:
#  1. GPop/s at 10 000 programs x 10 000 cases, size 50, 10 inputs, regression set, exact math:
#     the compute kernel, fragment PPCU and the CPU interpreter on every core (glevo bench gp),
#     and the compute kernel's variants (stack in shared memory, 2 and 4 quads per walk);
#  2. the compute kernel over the paper's surface (populations x cases 100 .. 50 000);
#  3. the strict tests: GPU errors equal the CPU interpreter's bit for bit (GLEVO_TEST_LARGE=1
#     test_gp_eval), exact math (test_gp_math), same GP runs on every backend, long loops;
#  4. EvoGP on its own random trees (every execution mode) and glevo on the very same trees and
#     data (scripts/device/gp_evogp_trees.py writes them).
# Everything lands in $OUT: gp.csv (one row per measurement, with the renderer), logs.
#   . .gl/env.sh && scripts/device/gp.sh [BUILD]
# with .peers/ carried beside the build (/work/shared/peers/README.md).
set -uo pipefail
build=${1:-build}
n=${GP_N:-10000}                 # programs and cases of the main cell (smaller for a dry run)
surface=${GP_SURFACE:-}          # e.g. "--pops 100,1000 --cases 100,1000" (default: the paper's)
out=${OUT:-out}; mkdir -p "$out"
g="$build/glevo"
"$g" info --json > "$out/info.json" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1
csv="$out/gp.csv"
echo "tool,engine,variant,set,pop,cases,mean_size,gpops,seconds,runs,renderer" > "$csv"

# Rows of a `glevo bench gp --out DIR` table into gp.csv, tagged with a variant.
bench_rows() { # DIR VARIANT
  python3 - "$1/gp.csv" "$2" >> "$csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(f"glevo,{r['engine']},{sys.argv[2]},{r['set']},{r['pop']},{r['cases']},50,{r['gpops']},,{r['runs']},\"{r['renderer']}\"")
PY
}

echo "== 1. 10 000 x 10 000, size 50, regression, exact math" >&2
"$g" bench gp --backend compute --pops $n --cases $n --engines ppcu,compute,cpu-all \
  --runs 5 --out "$out/bench_main" > "$out/bench_main.md" 2> "$out/bench_main.err" && bench_rows "$out/bench_main" default
GLEVO_GP_STACK=shared "$g" bench gp --backend compute --pops $n --cases $n --engines compute \
  --runs 5 --out "$out/bench_stack_shared" > /dev/null 2>> "$out/bench_main.err" && bench_rows "$out/bench_stack_shared" stack-shared
for lanes in 2 4; do
  "$g" bench gp --backend compute --pops $n --cases $n --engines compute --lanes $lanes \
    --runs 5 --out "$out/bench_lanes$lanes" > /dev/null 2>> "$out/bench_main.err" && bench_rows "$out/bench_lanes$lanes" lanes-$lanes
done

echo "== 2. compute over the paper's surface" >&2
"$g" bench gp --backend compute --engines compute --runs 3 --budget 1 $surface --out "$out/bench_surface" \
  > "$out/bench_surface.md" 2> "$out/bench_surface.err" && bench_rows "$out/bench_surface" surface

echo "== 3. strict tests" >&2
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$g"
for t in test_gp_math test_gp_eval test_gp_same test_gp_loops; do
  if GLEVO_TEST_LARGE=1 timeout 150 "$build/$t" > "$out/$t.txt" 2>&1; then s=pass; else s=FAIL; fi
  echo "$t $s" | tee -a "$out/tests.log"
done

echo "== 4. EvoGP and glevo on EvoGP's trees" >&2
if [ -d .peers/evogp ]; then
  (cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 timeout 200 python3 setup.py build_ext --inplace) \
    > "$out/evogp_build.log" 2>&1
  timeout 120 python3 scripts/device/gp_evogp_trees.py "$out/evogp" $n $n > "$out/evogp.jsonl" 2> "$out/evogp.err"
  python3 - "$out/evogp.jsonl" >> "$csv" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    print(f"evogp,{d['mode'].replace(' ', '-')},layers-{d['layers']},{d['set']},{d['pop']},{d['cases']},{d['mean_size']},{d['gpops']},{d['seconds']},5,\"CUDA\"")
PY
  for prog in "$out"/evogp/evogp_*.txt; do
    [ -f "$prog" ] || continue
    name=$(basename "$prog" .txt)
    for backend in compute fragment; do
      "$g" gp-eval --programs "$prog" --data "$out/evogp/evogp_data.csv" --backend $backend --runs 5 \
        --json 2>> "$out/evogp_glevo.err" | python3 -c "
import json, sys
d = json.load(sys.stdin)
tag = '$name'.split('_')
print(f\"glevo,{d['backend']}{'-' + d['strategy'] if d['backend'] == 'fragment' else ''},layers-{tag[2]},{tag[1]},{d['programs']},{d['cases']},{d['nodes'] / d['programs']:.2f},{d['gpops']},{d['seconds']},{d['runs']},\\\"{d['renderer']}\\\"\")" >> "$csv"
    done
  done
else
  echo "no .peers/evogp: EvoGP skipped" | tee -a "$out/evogp.err"
fi
cat "$csv"
cat "$out/tests.log"
