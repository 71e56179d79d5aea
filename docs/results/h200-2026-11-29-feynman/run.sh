#!/bin/bash
# SRBench's Feynman ground-truth track (scripts/srbench, --suite feynman: AI Feynman's 100
# equations) with `glevo gp` at its defaults on the H200's compute engine, 2000 programs x 100
# generations (the project's suite budget), 10 seeds, noise 0 then 0.01, 12 runs at once on the
# one GPU; SymPy's symbolic checks are made afterwards on a machine with SymPy
# (run.py --summary-only).  Usage (repository root on the GPU machine, $OUT set): run.sh GLEVO
set -u
g=$1; out=${OUT:-out}
for noise in 0 0.01; do
  timeout 250 python3 scripts/srbench/run.py --suite feynman --glevo "$g" --out "$out/noise-$noise" \
    --seeds 10 --jobs 12 --noise "$noise" --skip-symbolic --timeout 60 -- --backend compute \
    > "$out/noise-$noise.log" 2>&1
  echo "noise $noise rc=$?"
  rm -rf "$out/noise-$noise/data"
done
