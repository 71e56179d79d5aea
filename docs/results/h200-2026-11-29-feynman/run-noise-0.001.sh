#!/bin/bash
# SRBench's Feynman track at noise 0.001 (run.sh's protocol: `glevo gp` at its defaults on the
# H200's compute engine, 2000 x 100, 10 seeds, 12 runs at once), cut at 280 s of device time as
# run.sh's were at 250 s; SymPy's checks afterwards with run.py --summary-only.
# Usage (repository root on the GPU machine, $OUT set): run-noise-0.001.sh GLEVO
set -u
g=$1; out=${OUT:-out}
timeout 280 python3 scripts/srbench/run.py --suite feynman --glevo "$g" --out "$out/noise-0.001" \
  --seeds 10 --jobs 12 --noise 0.001 --skip-symbolic --timeout 60 -- --backend compute \
  > "$out/noise-0.001.log" 2>&1
echo "noise 0.001 rc=$?"
rm -rf "$out/noise-0.001/data"
tar czf "$out/noise-0.001.tgz" -C "$out" noise-0.001 && rm -rf "$out/noise-0.001"
