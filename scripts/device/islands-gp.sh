#!/usr/bin/env bash
# GP islands on the GPU machine: the projectile data (200 cases), a total population of 16 000
# programs split over 1, 2, 4 (and 8, 16 on the CPU) islands, 20 generations, ring, K = 5,
# M = 4. GPU backends: every rank shares the one GPU; CPU backend: one rank a core group
# (--threads 16 / islands). Prints a table and writes $OUT/islands_gp.csv (with the renderer)
# and $OUT/islands_gp.jsonl. About a minute.
#   . .gl/env.sh && scripts/device/islands-gp.sh [BUILD]     (GP_SMOKE=1: a dry run, total 800)
# GP_BACKENDS and GP_RANKS (the GPU backends' island counts) override the lists.
set -uo pipefail
. "$(dirname "$0")/mpi-setup.sh"
total=16000 gens=20
[ "${GP_SMOKE:-0}" = 1 ] && total=800 gens=4
csv="$out/islands_gp.csv" jsonl="$out/islands_gp.jsonl"
: > "$jsonl"; : > "$out/islands_gp_stderr.txt"
echo "backend,islands,pop_per_island,generations,seconds,programs_per_s,speedup,best_error,migration_share,renderer" > "$csv"
for backend in ${GP_BACKENDS:-compute fragment cpu}; do
  ranks=${GP_RANKS:-1 2 4}; [ "$backend" = cpu ] && ranks="1 2 4 8 16"
  base=""
  # A first, unmeasured run fills the driver's shader cache: otherwise the 1-island baseline
  # alone pays the compile (0.92 s against 0.44 s for the same compute run on the H100).
  "$g" gp --data data/gp/projectile_train.csv --pop 100 --generations 1 --backend "$backend" \
    --quiet > /dev/null 2>&1 || true
  for n in $ranks; do
    threads=1; [ "$backend" = cpu ] && threads=$((16 / n))
    line=$(timeout 120 "$mpirun" $root --oversubscribe --quiet --bind-to none -np "$n" \
      "$g" gp --data data/gp/projectile_train.csv --pop $((total / n)) --generations "$gens" \
      --backend "$backend" --threads "$threads" --islands --migrate-every 5 --migrants 4 \
      --seed 1 --json --quiet 2>> "$out/islands_gp_stderr.txt")
    [ -n "$line" ] || { echo "$backend,$n,,,FAILED" >> "$csv"; continue; }
    echo "$line" >> "$jsonl"
    row=$(BASE="$base" python3 -c '
import json, os, sys
d = json.loads(sys.argv[1]); isl = d["islands"]
pps = d["evaluations"] / d["seconds"]
base = float(os.environ["BASE"]) if os.environ["BASE"] else pps
print(",".join(str(v) for v in [d["backend"], isl["count"], d["pop"], d["generations"],
    "%.4f" % d["seconds"], "%.4g" % pps, "%.3f" % (pps / base), "%.6g" % d["best_fitness"],
    "%.4f" % isl["migration_share"], "\"%s\"" % d["renderer"]]))' "$line")
    echo "$row" >> "$csv"
    [ -z "$base" ] && base=$(echo "$row" | cut -d, -f6)
  done
done
cat "$csv"
