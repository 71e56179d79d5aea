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
. scripts/device/gp_whole_run.sh
cells=$GP_CELLS
evogp_build_begin
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
# Cold first: nothing of glevo's in the driver's cache yet.
for b in compute fragment; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "cold-$b" 1000 100 1 __GL_SHADER_DISK_CACHE=0 --backend "$b"
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "warm-$b" 1000 100 1 X=1 --backend "$b"
done
call_log cold-done
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
    call_log "cell $c done"
done
# shellcheck disable=SC2046
evogp_fullruns "$seeds" $(echo $cells | tr ':' ' ')
