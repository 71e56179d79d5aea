#!/bin/bash
# SRBench's Feynman track at noise 0, runs 1-3 of every equation (run-readable.sh's protocol),
# with sqrt in the fifth search's family (+ - * sqrt; a variant build, .prof/glevo-var)
out=${OUT:-out}; g=.prof/glevo-var
timeout 285 python3 scripts/srbench/run.py --suite feynman --glevo "$g" --out "$out/noise-0-sqrthelper" \
  --seeds 3 --jobs 12 --noise 0 --skip-symbolic --timeout 60 -- --backend compute \
  > "$out/noise-0-sqrthelper.log" 2>&1
echo "sqrthelper rc=$?"; tail -2 "$out/noise-0-sqrthelper.log"
rm -rf "$out/noise-0-sqrthelper/data"
