#!/usr/bin/env bash
# Issue 24's evaluation goal on the GPU machine, in one call: EvoGP's SR_fitness and glevo's
# compute evaluator on the very same trees and data (scripts/device/gp_small_trees.py), timed
# the same way (programs resident on the GPU, 5 evaluations then one synchronisation), over
# populations POPS x cases CASES; glevo's layouts swept (`glevo bench gp-layouts`: the rule's
# pick, the 64-lane kernel, and on SWEEP_CASES x SWEEP_SETS the small kernel at 1..32
# invocations a program x 1, 2, 4 quads a walk); the small-layout tests on the GPU; then, while
# DEADLINE seconds are not spent, `glevo bench gp --whole` with EvoGP's CSV of the same run.
#   . .gl/env.sh && DIR/gp_small.sh      (DIR holds glevo, the test binaries, libsubunit and
#                                         these scripts with evogp_forests.py; .peers/ carried beside it)
# Into $OUT (at most 8 files come back): evogp.jsonl, layouts.csv, tests.txt, steps.log, the
# bench's gp.md, gp_runs.csv and scaling picture, and EvoGP's built extension when it was built
# here (carry it back in DIR to skip the build next time).
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd)
g=${GLEVO:-$d/glevo}
out=${OUT:-out}; mkdir -p "$out"
pops=${POPS:-1000,10000,50000}
cases=${CASES:-100,1000,10000}
sweep_cases=${SWEEP_CASES:-100,1000}
sweep_sets=${SWEEP_SETS:-"arith_5 trig_6"}
deadline=${DEADLINE:-600}
work=${WORK:-/tmp/gp_small}; mkdir -p "$work"
export LD_LIBRARY_PATH="$d/lib:${LD_LIBRARY_PATH:-}"
t0=$(date +%s)
step() { echo "$1 after $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.log"; }
"$g" info --json 2>&1 | head -c 600 >> "$out/steps.log"; echo >> "$out/steps.log"

so=$(ls "$d"/evogp_cuda*.so 2>/dev/null | head -1)
if [ -n "$so" ]; then
  cp "$so" .peers/evogp/src/evogp/
else
  (cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 timeout 240 python3 setup.py build_ext --inplace) \
    > "$work/evogp_build.log" 2>&1
  cp .peers/evogp/src/evogp/evogp_cuda*.so "$out/" 2>/dev/null
fi
step "evogp ready"
timeout 200 python3 "$d/gp_small_trees.py" "$work" "$pops" "$cases" > "$out/evogp.jsonl" 2> "$work/evogp.err"
step "evogp timed"

csv="$out/layouts.csv"; first=1
for c in ${cases//,/ }; do
  for p in ${pops//,/ }; do
    for prog in "$work"/p$p/evogp_*.txt; do
      [ -f "$prog" ] || continue
      set=$(basename "$prog" .txt); set=${set#evogp_}
      ws="0,64"
      case ",$sweep_cases," in *",$c,"*)
        case " $sweep_sets " in *" $set "*) ws="0,64,1,2,4,8,16,32";; esac;; esac
      timeout 60 "$g" bench gp-layouts --programs "$prog" --data "$work/data_$c.csv" --prog-lanes "$ws" \
        --lanes 1,2,4 --runs 5 --tag "$set" > "$work/l.csv" 2>> "$work/layouts.err"
      if [ $first = 1 ]; then cat "$work/l.csv"; first=0; else tail -n +2 "$work/l.csv"; fi >> "$csv"
    done
  done
  step "glevo timed to $c cases"
done

export GLEVO_TEST_DATA="$PWD/data"
for t in test_gp_small test_gp_eval; do
  [ -x "$d/$t" ] || continue
  if GLEVO_TEST_LARGE=1 timeout 100 "$d/$t" > "$work/$t.txt" 2>&1; then s=pass; else s=FAIL; fi
  { echo "== $t $s"; tail -n 30 "$work/$t.txt"; } >> "$out/tests.txt"
  step "$t $s"
done

# Item 6: whole runs and the scaling picture, with EvoGP's numbers of this run, if time is left.
left=$(( deadline - ($(date +%s) - t0) ))
if [ "$left" -gt 30 ]; then
  cells=${WHOLE_CELLS:-1000x100,10000x1000}
  args=$(echo "$cells" | tr ',x' '  ')
  SEEDS=1 timeout $(( left / 3 )) python3 .peers/evogp_fullrun.py "$work/sr" $args > "$work/fullrun.jsonl" 2>> "$work/fullrun.err"
  python3 - "$out/evogp.jsonl" "$work/fullrun.jsonl" > "$work/evogp.csv" <<'PY'
import json, sys
print("kind,pop,cases,value")
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["mode"] == "auto": print("gpops,%d,%d,%g" % (d["pop"], d["cases"], d["gpops"]))
for line in open(sys.argv[2]):
    if not line.startswith("{"): continue  # the pipeline's own output
    d = json.loads(line); print("run_seconds,%d,%d,%g" % (d["pop"], d["cases"], d["seconds"]))
PY
  step "evogp whole runs"
  left=$(( deadline - ($(date +%s) - t0) ))
  timeout $(( left > 5 ? left - 5 : 1 )) "$g" bench gp --backend compute --engines compute --pops "$pops" --cases "$cases" \
    --runs 3 --budget 0.5 --whole --whole-cells "$cells" --whole-seeds 1 --whole-data "$work/sr" \
    --evogp "$work/evogp.csv" --out "$work/bench" > /dev/null 2> "$work/bench.err"
  cp "$work/bench/gp.md" "$work/bench/gp_runs.csv" "$work/bench/gp_scaling_regression.png" "$out/" 2>/dev/null
  step "bench gp"
fi
step "done"
