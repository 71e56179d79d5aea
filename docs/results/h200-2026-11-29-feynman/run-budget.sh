#!/bin/bash
# SRBench's Feynman track at noise 0 with a larger budget: `glevo gp` at its defaults on the
# H200's compute engine at 5000 programs x 100 generations (5 x 10^5 programs evaluated a run,
# against run.sh's 2000 x 100), 12 runs at once, cut at 300 s; SymPy's checks afterwards with
# run.py --summary-only. Usage (repository root on the GPU machine, $OUT set): run-budget.sh GLEVO
set -u
g=$1; out=${OUT:-out}
timeout 300 python3 scripts/srbench/run.py --suite feynman --glevo "$g" --out "$out/noise-0-pop5000" \
  --seeds 3 --jobs 12 --noise 0 --pop 5000 --generations 100 --skip-symbolic --timeout 90 \
  -- --backend compute > "$out/noise-0-pop5000.log" 2>&1
echo "pop 5000 rc=$?"
rm -rf "$out/noise-0-pop5000/data"
tar czf "$out/noise-0-pop5000.tgz" -C "$out" noise-0-pop5000 && rm -rf "$out/noise-0-pop5000"
