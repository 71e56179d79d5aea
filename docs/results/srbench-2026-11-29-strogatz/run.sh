#!/bin/bash
# The ODE-Strogatz suite at noise 0 and 0.01 on this project's 2-core CPU machine (2026-11-29), glevo gp at
# its defaults on the CPU engine (the harness's protocol), pop 2000 x 100 generations, 5 runs an
# equation; the glevo binary was the build of the commit that added the suite (aa657c2).
/usr/bin/python3 scripts/srbench/run.py --suite strogatz --seeds 5 --jobs 2 --out "${OUT:-out}/noise0" \
  --glevo build/glevo --label defaults
/usr/bin/python3 scripts/srbench/run.py --suite strogatz --seeds 5 --jobs 2 --noise 0.01 \
  --out "${OUT:-out}/noise0.01" --glevo build/glevo --label defaults
