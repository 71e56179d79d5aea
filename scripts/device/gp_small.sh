#!/usr/bin/env bash
# Issue 24's evaluation goal on the GPU machine, in one call: EvoGP's SR_fitness and glevo's
# compute evaluator on the very same trees and data (scripts/device/gp_small_trees.py), timed
# the same way (programs resident on the GPU, 5 evaluations then one synchronisation), over
# populations POPS x cases CASES; glevo's layouts swept (`glevo bench gp-layouts`: the rule's
# pick, the 64-lane kernel, and with SWEEP the small kernel at 1..32 invocations a program x
# 1, 2, 4 quads a walk) on the tree sets SWEEP_SETS; then the small-layout tests on the GPU.
#   . .gl/env.sh && DIR/gp_small.sh      (DIR holds glevo, the test binaries and these scripts;
#                                         .peers/ carried beside it: /work/shared/peers/README.md)
# Everything lands in $OUT: evogp.jsonl, layouts.csv (one row per timing, with the renderer),
# tests.log, and EvoGP's built extension (carry it back in DIR to skip the build next time).
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd)
g=${GLEVO:-$d/glevo}
out=${OUT:-out}; mkdir -p "$out"
pops=${POPS:-1000,10000,50000}
cases=${CASES:-100,1000,10000}
sweep_cases=${SWEEP_CASES:-100,1000}
sweep_sets=${SWEEP_SETS:-"arith_5 trig_6"}
work=${WORK:-/tmp/gp_small}; mkdir -p "$work"
"$g" info --json > "$out/info.json" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1

so=$(ls "$d"/evogp_cuda*.so 2>/dev/null | head -1)
t0=$(date +%s)
if [ -n "$so" ]; then
  cp "$so" .peers/evogp/src/evogp/
else
  (cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 timeout 240 python3 setup.py build_ext --inplace) \
    > "$out/evogp_build.log" 2>&1
  cp .peers/evogp/src/evogp/evogp_cuda*.so "$out/" 2>/dev/null
fi
echo "evogp ready after $(( $(date +%s) - t0 )) s" | tee "$out/steps.log"
timeout 200 python3 "$d/gp_small_trees.py" "$work" "$pops" "$cases" > "$out/evogp.jsonl" 2> "$out/evogp.err"
echo "evogp timed after $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.log"

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
        --lanes 1,2,4 --runs 5 --tag "$set" > "$work/l.csv" 2>> "$out/layouts.err"
      if [ $first = 1 ]; then cat "$work/l.csv"; first=0; else tail -n +2 "$work/l.csv"; fi >> "$csv"
    done
  done
  echo "glevo timed to $c cases after $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.log"
done

export GLEVO_TEST_DATA="$PWD/data"
for t in test_gp_small test_gp_eval; do
  [ -x "$d/$t" ] || continue
  if GLEVO_TEST_LARGE=1 timeout 100 "$d/$t" > "$out/$t.txt" 2>&1; then s=pass; else s=FAIL; fi
  echo "$t $s" | tee -a "$out/tests.log"
done
echo "done after $(( $(date +%s) - t0 )) s" | tee -a "$out/steps.log"
