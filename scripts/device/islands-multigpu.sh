#!/usr/bin/env bash
# Islands over the G GPUs of one host (nvidia-h200-x2/x4/x8): G, 2G and 4G ranks, each rank on
# the EGL device glevo gives it (the hardware devices in EGL order, node-local rank mod G), at
# equal total population, against 1 island on one GPU. First every rank describes its device
# (`glevo info --json --device D`) so the files show distinct GPUs. Into $OUT:
#   islands_multigpu_devices.jsonl   one line per rank: rank, device, the device's description
#   islands_multigpu.csv             one row per run (the columns of islands.csv)
#   islands_multigpu.jsonl           each run's JSON (per-island device, immigrants, seconds, and
#                                    islands.placement: every rank's host, device, renderer)
#   islands_multigpu_de.csv          DE (compute): time to an error below 1e-8, total NP 3200
#   islands_gp.csv                   GP (compute, fragment): islands-gp.sh on the same counts
#   islands_speedup.png, .csv        glevo bench islands --redraw of the three tables
# About 5 minutes.
#   . .gl/env.sh && scripts/device/islands-multigpu.sh [BUILD]
set -uo pipefail
. "$(dirname "$0")/mpi-setup.sh"

# The hardware EGL devices, as glevo counts them (Mesa's software device left out).
hardware=$("$g" info --json | python3 -c '
import json, sys
print(" ".join(str(d["index"]) for d in json.load(sys.stdin)["devices"] if not d["software"]))')
read -r -a hw <<< "$hardware"
G=${#hw[@]}
echo "hardware EGL devices: ${hw[*]} (G = $G)"
[ "$G" -ge 1 ] || { echo "no hardware EGL device" >&2; exit 1; }

# 1. Which device each rank opens, described by that rank (4G ranks: every mapping used below).
: > "$out/islands_multigpu_devices.jsonl"
"$mpirun" $root --oversubscribe --quiet --bind-to none -np $((4 * G)) bash -c '
  read -r -a hw <<< "$1"
  d=${hw[$((OMPI_COMM_WORLD_LOCAL_RANK % ${#hw[@]}))]}
  echo "{\"rank\":$OMPI_COMM_WORLD_RANK,\"device\":$d,\"info\":$("$2" info --json --device "$d")}"
' _ "$hardware" "$g" >> "$out/islands_multigpu_devices.jsonl"
python3 - "$out/islands_multigpu_devices.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    d = r["info"]["devices"][0]
    print("rank %3d: device %d %s %s" % (r["rank"], r["device"], d["name"], d["renderer"]))
PY

# 2. The islands: total 2048x2048 (4M individuals), 300 generations, ring, K = 50, M = 4.
csv="$out/islands_multigpu.csv"; jsonl="$out/islands_multigpu.jsonl"; : > "$jsonl"
echo "backend,islands,gpus,total_population,island_grid,generations,seconds,evals_per_s,speedup_evals,migration_share,devices,renderer" > "$csv"
split() { # W H N -> the island grid at equal total population (halve the longer side)
  local w=$1 h=$2 n=$3
  while [ "$n" -gt 1 ]; do
    if [ "$h" -ge "$w" ]; then h=$((h / 2)); else w=$((w / 2)); fi
    n=$((n / 2))
  done
  echo "${w}x${h}"
}
row_py=$(mktemp /tmp/islands-row-XXXXXX.py)
trap 'rm -f "$row_py"' EXIT
cat > "$row_py" <<'PY'
import json, os, sys
d = json.loads(sys.stdin.read()); isl = d["islands"]
cells = d["grid_width"] * d["grid_height"]
eps = cells * d["generations"] * isl["count"] / d["seconds"]
base = float(os.environ["BASE"]) if os.environ["BASE"] else eps
devices = sorted({r["device"] for r in isl["per_island"]})
print(",".join(str(v) for v in [
    d["backend"], isl["count"], len(devices), cells * isl["count"],
    "%dx%d" % (d["grid_width"], d["grid_height"]), d["generations"], "%.4f" % d["seconds"],
    "%.4g" % eps, "%.3f" % (eps / base), "%.4f" % isl["migration_share"],
    " ".join(map(str, devices)), '"%s"' % d["renderer"]]))
PY
for backend in fragment compute; do
  base=""
  for n in 1 $G $((2 * G)) $((4 * G)); do
    line=$(timeout 150 "$mpirun" $root --oversubscribe --quiet --bind-to none -np $n \
             "$g" cga --islands --backend $backend --grid "$(split 2048 2048 $n)" --problem camel \
             --generations 300 --report-every 50 --migrate-every 50 --migrants 4 --json --quiet \
             2>>"$out/islands_multigpu_stderr.txt")
    [ -n "$line" ] || { echo "$backend,$n,,,,,,,,,,FAILED" >> "$csv"; continue; }
    echo "$line" >> "$jsonl"
    row=$(BASE="$base" python3 "$row_py" <<< "$line")
    echo "$row" >> "$csv"
    [ -z "$base" ] && base=$(cut -d, -f8 <<< "$row")
  done
done
cat "$csv"

# 3. DE's time to target on the GPUs: the shifted sphere in 30 dimensions to an error below
#    1e-8 (Qin et al. 2012's success), total NP 3200 split over 1, G, 2G, 4G islands.
de_csv="$out/islands_multigpu_de.csv"
echo "backend,islands,gpus,pop_per_island,seconds,evaluations,reached,migration_share,devices,renderer" > "$de_csv"
for n in 1 $G $((2 * G)) $((4 * G)); do
  line=$(timeout 150 "$mpirun" $root --oversubscribe --quiet --bind-to none -np $n            "$g" de --islands --backend compute --problem sphere --dim 30 --pop $((3200 / n))            --max-evals $((3000000 / n)) --target-efv 1e-8 --check-every 10 --migrate-every 50            --migrants 4 --json --quiet 2>>"$out/islands_multigpu_stderr.txt")
  [ -n "$line" ] || { echo "compute,$n,,,,,FAILED" >> "$de_csv"; continue; }
  echo "$line" >> "$jsonl"
  python3 -c '
import json, sys
d = json.loads(sys.argv[1]); isl = d["islands"]
devices = sorted({r["device"] for r in isl["per_island"]})
efv = d.get("efv")
print(",".join(str(v) for v in [d["backend"], isl["count"], len(devices), d["pop"],
    "%.4f" % d["seconds"], d["evaluations"], efv is not None and efv < 1e-8,
    "%.4f" % isl["migration_share"], " ".join(map(str, devices)), "\"%s\"" % d["renderer"]]))
' "$line" >> "$de_csv"
done
cat "$de_csv"

# 4. GP islands (compute and fragment) on the same island counts.
GP_BACKENDS="compute fragment" GP_RANKS="1 $G $((2 * G)) $((4 * G))" OUT="$out" \
  "$(dirname "$0")/islands-gp.sh" "$build"

# 5. The speed-up picture of the three tables ($OUT/islands_speedup.png and its points).
"$g" bench islands --redraw "$csv,$de_csv,$out/islands_gp.csv" --out "$out" \
  --caption "$(date -u +%F), G = $G" || echo "bench islands --redraw failed" >&2
