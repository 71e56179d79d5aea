#!/bin/bash
# SRBench's Feynman track at noise 0, 10 000 programs x 300 generations (as
# ../h200-2026-11-29-collect/run-one.sh), runs RUN... spread over the host's NVIDIA GPUs: run
# k of the list on GPU k mod count, each GPU one run (12 glevo processes) at a time; then,
# with TESTS=DIR, every GP test binary of DIR on the first GPU. NOISE=0.01 POP=2000 GENS=100:
# another noise level and budget (the suite's: rows under runN-noiseLEVEL/).
# Usage (repository root on the GPU machine, $OUT set): run.sh GLEVO RUN...
set -u
glevo=$1; shift
out=${OUT:-out}; mkdir -p "$out"
noise=${NOISE:-0}; pop=${POP:-10000}; gens=${GENS:-300}
tag=$([ "$noise" = 0 ] || echo "-noise$noise")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
"$glevo" info > "$out/info.txt" 2>&1
# The EGL devices whose renderer is NVIDIA's (EGL lists the GPUs, and Mesa's where present).
gpus=($(awk '/^device [0-9]+:/{d=$2; sub(":", "", d)} /renderer:.*NVIDIA/{print d}' "$out/info.txt"))
[ ${#gpus[@]} -gt 0 ] || gpus=(-1)
echo "GPUs (EGL devices): ${gpus[*]}" >> "$out/info.txt"
for g in "${!gpus[@]}"; do
  (k=0
   for r in "$@"; do
     if [ $((k % ${#gpus[@]})) -eq "$g" ]; then
       timeout "${CUT:-560}" python3 .prof/srbench/run.py --suite feynman --glevo "$glevo" \
         --out "$out/run$r$tag" --seeds 1 --seed $((r - 1)) --data-seed $((r - 1)) --jobs 12 \
         --noise "$noise" --skip-symbolic --timeout 200 --pop "$pop" --generations "$gens" \
         -- --backend compute --device "${gpus[$g]}" > "$out/feynman-run$r$tag.log" 2>&1
       echo "feynman run $r rc=$? on device ${gpus[$g]}" >> "$out/feynman-run$r$tag.log"
       rm -rf "$out/run$r$tag/data"
     fi
     k=$((k + 1))
   done) &
done
wait
if [ -n "${TESTS:-}" ]; then
  for t in "$TESTS"/test_gp_*; do
    echo "== $t" >> "$out/tests.txt"
    timeout 120 "$t" >> "$out/tests.txt" 2>&1; echo "rc=$?" >> "$out/tests.txt"
  done
fi
tar -C "$out" -czf /tmp/call.tgz . && rm -rf "${out:?}"/* && mv /tmp/call.tgz "$out/call.tgz"
