#!/bin/bash
# The disk cache of linked programs (src/gl/program_disk.c) on the H200: the four cells of
# evogp_fullrun.py at the defaults (compute) and with EvoGP's algorithm, with glevo's program
# cache (in a folder of this call) and without it (GLEVO_PROGRAM_CACHE=0, NVIDIA's own shader
# cache warm either way), seeds 1-5 after a first, discarded run; a run that fills an empty
# cache (NVIDIA's warm); cold runs (both caches off: __GL_SHADER_DISK_CACHE=0 turns glevo's off
# too); the fragment defaults (seeds 1-3) with a pass profile at the two large cells; constant
# fitting's dispatch with 1, 2 and 4 programs a work-group at 10^4 x 1000; EvoGP's pipeline.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): run.sh GLEVO
set -u
g=$1; out=${OUT:-out}; mkdir -p "$out/data" "$out/prof"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 ||
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
    --inplace > "$out/evogp-build.txt" 2>&1) &
build=$!
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
. scripts/device/gp_whole_run.sh
cache=$(mktemp -d)
ON="GLEVO_PROGRAM_CACHE=$cache"; OFF="GLEVO_PROGRAM_CACHE=0"
for rep in 1 2 3; do
  for b in compute fragment; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" cold-$b 1000 100 1 __GL_SHADER_DISK_CACHE=0 --backend $b
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" fill-$b 1000 100 1 "GLEVO_PROGRAM_CACHE=$(mktemp -d)" --backend $b
  done
done
log "cold and fill done"
cells="1000:100 10000:1000 10000:10000 100000:1000"
for c in $cells; do
  pop=${c%:*}; cases=${c#*:}
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 "$ON" --backend compute
  # shellcheck disable=SC2086
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 "$ON" --backend compute $EVOGP_ALGORITHM
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 "$OFF" --backend compute
  for s in 1 2 3 4 5; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" defaults "$pop" "$cases" "$s" "$ON" --backend compute
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" defaults-nocache "$pop" "$cases" "$s" "$OFF" --backend compute
    # shellcheck disable=SC2086
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" evogp-algorithm "$pop" "$cases" "$s" "$ON" \
      --backend compute $EVOGP_ALGORITHM
    # shellcheck disable=SC2086
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" evogp-algorithm-nocache "$pop" "$cases" "$s" "$OFF" \
      --backend compute $EVOGP_ALGORITHM
  done
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 "$ON" --backend fragment
  for s in 1 2 3; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" fragment "$pop" "$cases" "$s" "$ON" --backend fragment
  done
  log "cell $c done"
done
for c in 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  env "$ON" "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed 1 \
    --quiet --json --profile --backend fragment > "$out/prof/fragment-$pop-$cases.json" 2> "$out/prof/fragment-$pop-$cases.txt"
done
for w in 1 2 4; do
  env "$ON" GLEVO_GP_FIT_WARPS=$w "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 50 --max-size 64 \
    --seed 1 --quiet --json --profile --backend compute > "$out/prof/warps$w.json" 2> "$out/prof/warps$w.txt"
done
"$g" info > "$out/info.txt" 2>&1
ls -la "$cache" > "$out/cache-listing.txt"
log "profiles done"
wait $build
log evogp-built
# shellcheck disable=SC2046
SEEDS=1,2,3,4,5 python3 .peers/evogp_fullrun.py "$out/evogp-data" $(echo $cells | tr ':' ' ') >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
rm -rf "$out/data" "$out/evogp-data" "$cache"
tar czf "$out/more.tgz" -C "$out" prof info.txt cache-listing.txt $(cd "$out" && ls evogp-build.txt 2>/dev/null) &&
  rm -rf "$out/prof" "$out/info.txt" "$out/cache-listing.txt" "$out/evogp-build.txt"
