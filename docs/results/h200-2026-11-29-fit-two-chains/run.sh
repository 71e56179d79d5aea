#!/bin/bash
# Constant fitting's value walks with two chains a code (eight cases a lane) against the build
# before (four), on the H200: the four cells of evogp_fullrun.py at the defaults (compute),
# seeds 1-5 after a first, discarded run of each build, the two builds taking turns; --profile
# at the two middle cells; EvoGP's pipeline in the same call.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): run.sh NEW BEFORE
set -u
new=$1; before=$2; out=${OUT:-out}; mkdir -p "$out/data" "$out/prof"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 ||
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
    --inplace > "$out/evogp-build.txt" 2>&1) &
build=$!
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
. scripts/device/gp_whole_run.sh
cells="1000:100 10000:1000 10000:10000 100000:1000"
for c in $cells; do
  pop=${c%:*}; cases=${c#*:}
  gp_whole_run "$out/glevo.jsonl" "$new" "$out/data" warmup "$pop" "$cases" 1 X=1 --backend compute
  gp_whole_run "$out/glevo.jsonl" "$before" "$out/data" warmup "$pop" "$cases" 1 X=1 --backend compute
  for s in 1 2 3 4 5; do
    gp_whole_run "$out/glevo.jsonl" "$new" "$out/data" two-chains "$pop" "$cases" "$s" X=1 --backend compute
    gp_whole_run "$out/glevo.jsonl" "$before" "$out/data" before "$pop" "$cases" "$s" X=1 --backend compute
  done
  log "cell $c done"
done
for c in 10000:1000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for b in new before; do
    g=$new; [ $b = before ] && g=$before
    "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed 1 \
      --quiet --json --profile --backend compute > "$out/prof/$b-$pop-$cases.json" 2> "$out/prof/$b-$pop-$cases.txt"
  done
done
log "profiles done"
wait $build
log evogp-built
# shellcheck disable=SC2046
SEEDS=1,2,3,4,5 python3 .peers/evogp_fullrun.py "$out/evogp-data" $(echo $cells | tr ':' ' ') >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
rm -rf "$out/data" "$out/evogp-data"
tar czf "$out/prof.tgz" -C "$out" prof $(cd "$out" && ls evogp-build.txt 2>/dev/null) && rm -rf "$out/prof" "$out/evogp-build.txt"
