#!/usr/bin/env bash
# Islands on the GPU machine (issue 15): 1, 2, 4, 8 islands at equal total population, every
# rank on the one H100 (ranks time-slice it), then 1..16 islands on the CPU backend over the
# 16 host cores; cGA throughput and time to target, DE time to target. Speedup in evaluations
# per second and in time to target, and the share of time spent migrating at K = 50 (goal
# < 5 %). Into $OUT, about 5 minutes:
#   islands.csv          one row per run
#   islands_speedup.csv  against 1 island of the same section, family, backend and population
#   islands_scaling.csv  the picture's data for `glevo bench plot --data islands_scaling.csv
#                        --out docs/images/islands-scaling.svg --x-label islands --y-label speedup`
#   islands.jsonl        every run's JSON; islands_stderr.txt, islands_mpi.txt
#   . .gl/env.sh && scripts/device/islands.sh [BUILD]
# The machine's own Open MPI (4.1.6, libmpi.so.40, the ABI of Debian's 4.1.4) runs the build.
# ISLANDS_SMOKE=1 shrinks every size 16-fold and the generations 10-fold: a dry run on llvmpipe.
set -uo pipefail
. "$(dirname "$0")/mpi-setup.sh"
smoke=${ISLANDS_SMOKE:-0}
csv="$out/islands.csv"; jsonl="$out/islands.jsonl"; : > "$jsonl"; : > "$out/islands_stderr.txt"
echo "section,family,backend,islands,total_population,island_size,generations,migrate_every,migrants,seconds,evals_per_s,target,reached,migration_share,migration_seconds,sync_seconds,best_or_efv,renderer" > "$csv"
"$mpirun" --version 2>&1 | head -1 > "$out/islands_mpi.txt"

# One CSV row from a run's JSON. Evaluations per second count the generations' evaluations
# (the migrations' extra fitness passes are left out).
row_py=$(mktemp /tmp/islands-row-XXXXXX.py)
trap 'rm -f "$row_py"' EXIT
cat > "$row_py" <<'PY'
import json, sys
d = json.loads(sys.stdin.read()); isl = d["islands"]; rows = isl["per_island"]
if d["algorithm"] == "cga":
    cells, size = d["grid_width"] * d["grid_height"], f'{d["grid_width"]}x{d["grid_height"]}'
else:
    cells, size = d["pop"], str(d["pop"])
eps = cells * d["generations"] * isl["count"] / d["seconds"]
# Reached the target (every target here is a minimisation), not merely stopped (a budget).
target = d.get("target", d.get("target_efv", ""))
value = d["best_fitness"] if "target" in d else d.get("efv")
reached = target != "" and value is not None and value <= target
print(",".join(str(v) for v in [
    sys.argv[1], d["algorithm"], d["backend"], isl["count"], cells * isl["count"],
    size, d["generations"], isl["migrate_every"],
    isl["migrants"], f'{d["seconds"]:.4f}', f"{eps:.4g}", target,
    reached if target != "" else "", f'{isl["migration_share"]:.4f}', f'{isl["migration_seconds"]:.4f}',
    f'{max(r["sync_seconds"] for r in rows):.4f}', d.get("efv", d["best_fitness"]),
    '"' + d["renderer"] + '"']))
PY

# run SECTION BACKEND N SIZE BIND ARGS...: one mpirun job of glevo cga (SIZE = its grid, or
# de:NP for glevo de), its JSON line kept, a CSV row.
run() {
  local section=$1 backend=$2 n=$3 grid=$4 bind=$5; shift 5
  local cmd=(cga --grid "$grid")
  [ "${grid%%:*}" = de ] && cmd=(de --pop "${grid#de:}")
  local line
  # Past 5.5 minutes the remaining runs are skipped (and say so): the script stays under 6.
  if [ "$SECONDS" -gt 330 ]; then echo "$section,${cmd[0]},$backend,$n,,$grid,,,,,,,,,,,,SKIPPED" >> "$csv"; return; fi
  # Open MPI refuses to bind more ranks than cores (only in a dry run on a small machine).
  [ "$bind" = core ] && [ "$n" -gt "$(nproc)" ] && bind=none
  line=$(timeout 120 "$mpirun" $root --oversubscribe --quiet --bind-to "$bind" -np "$n" \
           "$g" "${cmd[@]}" --islands --backend "$backend" --sync-timeout 60 --json --quiet "$@" \
           2>>"$out/islands_stderr.txt")
  if [ -z "$line" ]; then echo "$section,${cmd[0]},$backend,$n,,$grid,,,,,,,,,,,,FAILED" >> "$csv"; return; fi
  echo "$line" >> "$jsonl"
  python3 "$row_py" "$section" <<< "$line" >> "$csv"
}

# split W H N: the island grid at equal total population (halve the longer side, N a power of 2).
split() {
  local w=$1 h=$2 n=$3
  [ "$smoke" = 1 ] && w=$((w / 4)) h=$((h / 4))
  while [ "$n" -gt 1 ]; do
    if [ "$h" -ge "$w" ]; then h=$((h / 2)); else w=$((w / 2)); fi
    n=$((n / 2))
  done
  echo "${w}x${h}"
}
gens() { if [ "$smoke" = 1 ]; then echo $(($1 / 10)); else echo "$1"; fi; }

# 1. Throughput on the GPU, both drivers: a GPU-bound total (10^6) and a launch-bound one (16k).
for backend in fragment compute; do
  for total in 1024:1024:300 128:128:1000; do
    IFS=: read -r w h n_gens <<< "$total"
    for n in 1 2 4 8; do
      run throughput $backend $n "$(split $w $h $n)" none --problem camel \
        --generations "$(gens $n_gens)" --report-every 50 --migrate-every 50 --migrants 4
    done
  done
done
# 2. The migration share against K at 8 islands (K = 50 is the goal's; 10 and 200 beside it).
for k in 10 200; do
  run migration-share fragment 8 "$(split 1024 1024 8)" none --problem camel \
    --generations "$(gens 400)" --report-every $k --migrate-every $k --migrants 4
done
# 3. Time to target: Rastrigin in 10 dimensions, total 512x512, stop once best <= 0.1 (checked
#    every 10 generations), at most 3000 generations.
for backend in fragment compute; do
  for n in 1 2 4 8; do
    run time-to-target $backend $n "$(split 512 512 $n)" none --problem rastrigin --dim 10 \
      --generations "$(gens 3000)" --target 0.1 --report-every 10 --migrate-every 50 --migrants 4
  done
done
# 4. The CPU backend over the host's cores, one rank per core.
for n in 1 2 4 8 16; do
  run throughput cpu $n "$(split 256 256 $n)" core --problem camel --generations "$(gens 60)" \
    --report-every 30 --migrate-every 30 --migrants 4
done
for n in 1 2 4 8 16; do
  run time-to-target cpu $n "$(split 128 128 $n)" core --problem rastrigin --dim 10 \
    --generations "$(gens 600)" --target 1 --report-every 10 --migrate-every 50 --migrants 4
done

# 5. DE's time to target: the shifted sphere in 30 dimensions to an error below 1e-8 (Qin et al.
#    2012's success), total NP 400 and 3200 split over the islands, a budget large enough.
for backend in fragment compute cpu; do
  for total in 400 3200; do
    [ $backend = cpu ] && [ $total = 3200 ] && continue
    for n in 1 2 4 8; do
      run time-to-target $backend $n "de:$((total / n))" none --problem sphere --dim 30 \
        --max-evals $(( $(gens 3000000) / n )) --target-efv 1e-8 --check-every 10 \
        --migrate-every 50 --migrants 4
    done
  done
done

# Speedups against 1 island of the same section, backend and total population.
python3 - "$csv" > "$out/islands_speedup.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["seconds"]]
key = lambda r: (r["section"], r["family"], r["backend"], r["total_population"])
base = {key(r): r for r in rows if r["islands"] == "1"}
print("section,family,backend,total_population,islands,evals_per_s,speedup_evals,seconds,speedup_time,reached,migration_share")
for r in rows:
    b = base.get(key(r))
    if not b: continue
    se = float(r["evals_per_s"]) / float(b["evals_per_s"])
    st = float(b["seconds"]) / float(r["seconds"])
    print(f'{r["section"]},{r["family"]},{r["backend"]},{r["total_population"]},{r["islands"]},'
          f'{r["evals_per_s"]},{se:.3f},{r["seconds"]},{st:.3f},{r["reached"]},{r["migration_share"]}')
PY
# The scaling picture's data, long format for `glevo bench plot` (series,x,y[,dash]): speedup
# in evaluations per second (solid) and in time (dashed) against islands.
python3 - "$out/islands_speedup.csv" > "$out/islands_scaling.csv" <<'PY'
import csv, sys
print("series,islands,speedup,dash")
for r in csv.DictReader(open(sys.argv[1])):
    name = f'{r["family"]} {r["backend"]} {r["section"]} {r["total_population"]}'
    if r["section"] == "time-to-target":
        print(f'{name},{r["islands"]},{r["speedup_time"]},1')
    else:
        print(f'{name},{r["islands"]},{r["speedup_evals"]},0')
PY
cat "$csv" "$out/islands_speedup.csv"
