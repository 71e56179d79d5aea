#!/bin/bash
# What a user times with `glevo gp`: whole runs at the defaults beside EvoGP's pipeline
# (../shared/peers/evogp_fullrun.py) in the same call, and the first run with the shader cache
# off. The four cells (programs:cases), 50 generations, max size 64, on gp_sr_data.py's data;
# variants: the defaults on compute ("defaults") and on fragment ("fragment"), EvoGP's own
# algorithm on compute ("evogp-algorithm"); cold = __GL_SHADER_DISK_CACHE=0.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp):
#   scripts/device/gp-defaults.sh GLEVO [SEEDS] [FRAGMENT_SEEDS]
# FRAGMENT_MAX_POP=N: fragment runs only at cells of at most N programs.
# Writes $OUT/glevo.jsonl (gp_whole_run.sh's rows), $OUT/evogp.jsonl, $OUT/log.txt.
set -u
g=$1; seeds=${2:-1,2,3,4,5}; fseeds=${3:-1,2,3}
out=${OUT:-out}; mkdir -p "$out/data"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
cells="1000:100 10000:1000 10000:10000 100000:1000"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000
ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 ||
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
    --inplace > "$out/evogp-build.txt" 2>&1) &
build=$!
. scripts/device/gp_whole_run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
# Cold first: nothing of glevo's in the driver's cache yet.
for b in compute fragment; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "cold-$b" 1000 100 1 __GL_SHADER_DISK_CACHE=0 --backend "$b"
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "warm-$b" 1000 100 1 X=1 --backend "$b"
done
log cold-done
for c in $cells; do
    pop=${c%:*}; cases=${c#*:}
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 X=1 --backend compute
    # shellcheck disable=SC2086
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 X=1 --backend compute \
        $EVOGP_ALGORITHM
    for s in ${seeds//,/ }; do
        gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" defaults "$pop" "$cases" "$s" X=1 --backend compute
        # shellcheck disable=SC2086
        gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" evogp-algorithm "$pop" "$cases" "$s" X=1 \
            --backend compute $EVOGP_ALGORITHM
    done
    [ "$pop" -le "${FRAGMENT_MAX_POP:-100000}" ] || fseeds=""
    for s in ${fseeds//,/ }; do
        gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" fragment "$pop" "$cases" "$s" X=1 --backend fragment
    done
    log "cell $c done"
done
wait $build
log evogp-built
# shellcheck disable=SC2046
SEEDS=$seeds python3 .peers/evogp_fullrun.py "$out/evogp-data" $(echo $cells | tr ':' ' ') >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
