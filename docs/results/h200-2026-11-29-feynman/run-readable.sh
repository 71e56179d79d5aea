#!/bin/bash
# SRBench's Feynman track at noise 0 (run.sh's protocol: `glevo gp` at its defaults on the
# H200's compute engine, 2000 x 100, 12 runs at once), runs 1-3 of every equation, with the
# readable model's pruning of subtrees constant on the data: the same searches as run.sh's
# runs 1-3 (same seeds, same data), only the reported model differs. SymPy's checks afterwards
# with run.py --summary-only. Usage (repository root on the GPU machine, $OUT set): GLEVO
set -u
g=$1; out=${OUT:-out}
timeout 280 python3 scripts/srbench/run.py --suite feynman --glevo "$g" --out "$out/noise-0-readable" \
  --seeds 3 --jobs 12 --noise 0 --skip-symbolic --timeout 60 -- --backend compute \
  > "$out/noise-0-readable.log" 2>&1
echo "readable rc=$?"
rm -rf "$out/noise-0-readable/data"
tar czf "$out/noise-0-readable.tgz" -C "$out" noise-0-readable && rm -rf "$out/noise-0-readable"
