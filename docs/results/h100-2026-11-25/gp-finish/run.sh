#!/bin/bash
# Whole GP runs on the GPU machine (population, breeding, fitness, best and elites on the
# GPU: issue 24), beside EvoGP's pipeline (../shared/peers/evogp_fullrun.py) in the same call:
# the four cells, 50 generations, max size 64, MSE. Usage (repository root, $OUT set, EvoGP in
# .peers/evogp):  docs/results/h100-2026-11-25/gp-finish/run.sh GLEVO [SEEDS]
# Order, so that a call cut short keeps what matters: the data; the cold start; per cell a
# warm-up then seeds 1..N of the compute backend and seed 1 with the host's fitness
# (GLEVO_GP_HOST_FITNESS=1: the errors read back each generation), EvoGP building in the
# background meanwhile (skipped where a built evogp_cuda module was carried); the fragment
# backend (warm-up, seed 2, skipped past FRAG_UNTIL seconds); then EvoGP's runs. Writes $OUT/glevo.jsonl, $OUT/evogp.jsonl, $OUT/log.txt.
set -u
g=$1; seeds=${2:-1,2,3,4,5}
out=${OUT:-out}; mkdir -p "$out/data"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
cells="1000:100 10000:1000 10000:10000 100000:1000"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000
log data
# EvoGP's build (minutes of nvcc) beside glevo's runs, niced to 10 of the 16 cores so that a
# call of a few minutes holds both; glevo's runs wait on the GPU, not the cores.
ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 && echo built > "$out/evogp-build.txt" ||
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
    --inplace > "$out/evogp-build.txt" 2>&1; echo built >> "$out/evogp-build.txt") &
build=$!
. scripts/device/gp_whole_run.sh
run() { # variant pop cases seed env [backend]
    # shellcheck disable=SC2086
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$1" "$2" "$3" "$4" "$5" $EVOGP_ALGORITHM \
        --backend "${6:-compute}"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
"$g" info > "$out/info.txt" 2>&1
run cold 1000 100 1 X=1
for c in $cells; do
    pop=${c%:*}; cases=${c#*:}
    run warmup "$pop" "$cases" 1 X=1
    for s in ${seeds//,/ }; do run resident "$pop" "$cases" "$s" X=1; done
    run hostfit "$pop" "$cases" 1 GLEVO_GP_HOST_FITNESS=1
done
log glevo-compute-done
for c in $cells; do
    pop=${c%:*}; cases=${c#*:}
    [ $(( $(date +%s) - start )) -gt "${FRAG_UNTIL:-110}" ] && { log "fragment $c skipped"; continue; }
    run fragment-warmup "$pop" "$cases" 1 X=1 fragment
    run fragment "$pop" "$cases" 2 X=1 fragment
    log "fragment $c"
done
wait $build
log evogp-built
SEEDS=$seeds python3 .peers/evogp_fullrun.py "$out/evogp_data" 1000 100 10000 1000 10000 10000 100000 1000 \
    > "$out/evogp.jsonl" 2> "$out/evogp.err"
log evogp-done
