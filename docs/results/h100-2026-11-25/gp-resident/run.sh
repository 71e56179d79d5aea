#!/bin/bash
# Whole GP runs on the GPU machine (issue 24): glevo with the resident population (compute
# backend) beside the host-bred runs and EvoGP's pipeline (../shared/peers/evogp_fullrun.py)
# on the same data, 50 generations, max size 64. Usage (repository root, $OUT set):
#   docs/results/h100-2026-11-25/gp-resident/run.sh GLEVO [SEEDS]
# Writes $OUT/glevo.jsonl (one line per run: cell, seed, variant, wall, the run's --json) and
# $OUT/evogp.jsonl. The first glevo process is the cold start (shader compiles); every cell
# then runs once before its seeds (warm-up), then the fragment backend (warm-up, seed 2);
# EXACT=1 adds seed 1 with the evaluator's shape read back and with bounds
# (GLEVO_GP_RESIDENT_SHAPE), HOST_BRED=1 a host-bred run (GLEVO_GP_HOST_BREED=1).
set -u
g=$1; seeds=${2:-1,2,3,4,5}
out=${OUT:-out}; mkdir -p "$out" "$out/data"
cells="1000:100 10000:1000 10000:10000 100000:1000"
# The data evogp_fullrun.py writes (torch.manual_seed(1), the same target), without EvoGP.
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000
. scripts/device/gp_whole_run.sh
run() { # variant pop cases seed env [backend]
    # shellcheck disable=SC2086
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$1" "$2" "$3" "$4" "$5" $EVOGP_ALGORITHM \
        --backend "${6:-compute}"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
run cold 1000 100 1 X=1
for c in $cells; do
    pop=${c%:*}; cases=${c#*:}
    run warmup "$pop" "$cases" 1 X=1
    for s in ${seeds//,/ }; do run resident "$pop" "$cases" "$s" X=1; done
    [ -n "${EXACT:-}" ] && run exact "$pop" "$cases" 1 GLEVO_GP_RESIDENT_SHAPE=exact
    [ -n "${EXACT:-}" ] && run bound "$pop" "$cases" 1 GLEVO_GP_RESIDENT_SHAPE=bound
    [ -n "${HOST_BRED:-}" ] && run host-bred "$pop" "$cases" 1 GLEVO_GP_HOST_BREED=1
    run fragment-warmup "$pop" "$cases" 1 X=1 fragment
    run fragment "$pop" "$cases" 2 X=1 fragment
done
echo glevo-done
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=16 python3 setup.py build_ext --inplace >/dev/null 2>&1)
echo evogp-built
SEEDS=$seeds python3 .peers/evogp_fullrun.py "$out/evogp_data" 1000 100 10000 1000 10000 10000 100000 1000 \
    > "$out/evogp.jsonl" 2> "$out/evogp.err"
echo evogp-done
