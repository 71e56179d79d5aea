#!/usr/bin/env bash
# DSMGA-II model building on the GPU machine (issue 13's goals, Li & Yu 2017 §6): the 600-bit
# folded trap at its swept population (n = 224, bench dsmga's table), BuildDSM and lossless /
# lossy FindClique per generation with the model built by compute dispatches, by fragment
# passes and by the single-thread CPU engine, lossless NFE of each GPU backend against the CPU
# engine's (same seeds); then per-kernel GPU times (--profile) and the model tests on this GPU.
# Writes $OUT/dsmga_ftrap.{csv,md}, $OUT/dsmga_goals.csv (one line per backend with the
# renderer), $OUT/dsmga_profile_*.txt, $OUT/dsmga_tests.txt. About 3-4 minutes on the H100.
#   . .gl/env.sh && scripts/device/dsmga.sh [BUILD] [GPU_RUNS] [CPU_RUNS]
# (ELL=36 POP=60 scripts/device/dsmga.sh build 1 1 is a seconds-long smoke test on llvmpipe.)
set -uo pipefail
build=${1:-build}
runs=${2:-5}
cpu_runs=${3:-3}
ell=${ELL:-600}
pop=${POP:-224}
out=${OUT:-out}; mkdir -p "$out"
g="$build/glevo"
"$g" info --json > "$out/info.json" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/nvidia-smi.txt" 2>&1

# 1. Whole runs; timings are host wall ms a generation over every generation of the runs. The CPU
# lossless runs take ~40 s each there (FindClique ~0.9 s a generation), hence few of them.
start=$(date +%s)
timeout 300 "$g" bench dsmga --problems ftrap --ells "$ell" --pop "$pop" --runs "$runs" --cpu-runs "$cpu_runs" \
  --backend compute,fragment --out "$out" --name dsmga_ftrap 2> "$out/dsmga_bench.err"
echo "bench: exit $?, $(( $(date +%s) - start )) s" | tee -a "$out/dsmga_bench.err"

# 2. Goals, one line per backend: BuildDSM >= 60x, lossy FindClique >= 400x the CPU engine, every
# lossless run with the CPU engine's NFE.
python3 - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
try:
    renderer = json.load(open(f"{out}/info.json")).get("renderer", "?")
except Exception:
    renderer = "?"
rows = list(csv.DictReader(open(f"{out}/dsmga_ftrap.csv")))
with open(f"{out}/dsmga_goals.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["backend", "problem", "ell", "pop", "dsm_cpu_ms", "dsm_gpu_ms", "speedup_dsm", "goal_dsm_60x",
                "ils_cpu_ms", "ils_gpu_ms", "speedup_ils_lossless", "ils_lossy_gpu_ms", "speedup_ils_lossy",
                "goal_ils_lossy_400x", "same_nfe_lossless", "cpu_runs", "renderer"])
    for r in rows:
        w.writerow([r["backend"], r["problem"], r["ell"], r["pop"], r["dsm_cpu_ms"], r["dsm_gpu_ms"], r["speedup_dsm"],
                    float(r["speedup_dsm"]) >= 60, r["ils_cpu_ms"], r["ils_gpu_ms"], r["speedup_ils_lossless"],
                    r["ils_lossy_gpu_ms"], r["speedup_ils_lossy"], float(r["speedup_ils_lossy"]) >= 400,
                    r["same_nfe_original_lossless"], r["cpu_runs"], renderer])
print(open(f"{out}/dsmga_goals.csv").read())
PY

# 3. GPU time of each pass / dispatch (one run each; the fragment lossless run issues ~3 ell
# passes a generation, so its table is long but complete).
for backend in compute fragment; do
  for model in lossless lossy; do
    timeout 60 "$g" dsmga --problem ftrap --ell "$ell" --pop "$pop" --model $model --seed 1 --backend $backend \
      --profile --json > "$out/dsmga_profile_${backend}_$model.json" 2> "$out/dsmga_profile_${backend}_$model.txt"
  done
done

# 4. The model tests on this GPU (DSM bit for bit, ILS exactly, whole runs equal to the CPU
# engine), with the large DSM case.
export GLEVO_TEST_DATA="$PWD/data" GLEVO_TEST_LARGE=1
for t in test_dsmga_model test_dsmga_engine; do
  timeout 120 "$build/$t" >> "$out/dsmga_tests.txt" 2>&1; echo "$t: exit $?" | tee -a "$out/dsmga_tests.txt"
done
