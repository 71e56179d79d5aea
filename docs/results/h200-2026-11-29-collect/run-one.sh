#!/bin/bash
# Run RUN (default 3) of every Feynman equation at noise 0 with 10 000 programs x 300
# generations (glevo seed RUN, data seed RUN, as run.sh's run RUN would be; the rows say run 1,
# seed RUN), 12 at once, with the tree of 2026-11-29 night (printed models as after this
# night's work).
# Usage (repository root on the GPU machine, $OUT set): RUN=N run-one.sh GLEVO
set -u
glevo=$1; out=${OUT:-out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
timeout "${CUT:-300}" python3 .prof/srbench/run.py --suite feynman --glevo "$glevo" \
  --out "$out/noise-0-p10000-g300-run${RUN:-3}" --seeds 1 --seed $((${RUN:-3} - 1)) \
  --data-seed $((${RUN:-3} - 1)) --jobs 12 --noise 0 \
  --skip-symbolic --timeout 200 --pop 10000 --generations 300 -- --backend compute \
  > "$out/feynman.log" 2>&1
echo "feynman rc=$?" >> "$out/feynman.log"
rm -rf "$out/noise-0-p10000-g300-run${RUN:-3}/data"
tar -C "$out" -czf /tmp/call.tgz . && rm -rf "${out:?}"/* && mv /tmp/call.tgz "$out/call.tgz"
