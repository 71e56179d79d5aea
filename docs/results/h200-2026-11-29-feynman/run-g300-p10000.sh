#!/bin/bash
# 2026-11-29 (evening): SRBench's Feynman track, noise 0, run 1 of every equation, at budgets
# above the suite's 2000 x 100: 2000 x 300 generations (noise-0-g300/) and 10000 x 100
# (noise-0-p10000/), 12 runs at once on the H200, the tree's build (readable models that drop
# what the error does not see). SymPy's checks afterwards with --summary-only.
set -u
out=${OUT:-out}; g=$1
for cfg in "g300:--generations 300" "p10000:--pop 10000"; do
  name=${cfg%%:*}; args=${cfg#*:}
  SECONDS=0
  timeout 230 python3 scripts/srbench/run.py --suite feynman --glevo "$g" --out "$out/$name" \
    --seeds 1 --jobs 12 --noise 0 --skip-symbolic --timeout 120 $args -- --backend compute \
    > "$out/$name.log" 2>&1
  echo "$name rc=$? ${SECONDS} s" | tee -a "$out/summary.txt"
  rm -rf "$out/$name/data"
done
