#!/bin/bash
# SRBench's Feynman track at noise 0, runs 1-3 of every equation (run-readable.sh's protocol),
# with square added to the default regression operators
out=${OUT:-out}; g=.prof/glevo
timeout 285 python3 scripts/srbench/run.py --suite feynman --glevo "$g" --out "$out/noise-0-square" \
  --seeds 3 --jobs 12 --noise 0 --skip-symbolic --timeout 60 -- --backend compute \
  --function-set +,-,*,/,neg,sin,cos,exp,log,sqrt,square > "$out/noise-0-square.log" 2>&1
echo "square rc=$?"; tail -2 "$out/noise-0-square.log"
rm -rf "$out/noise-0-square/data"
