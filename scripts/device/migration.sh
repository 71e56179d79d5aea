#!/usr/bin/env bash
# Migration cost of cGA islands on the GPU machine (emigrants chosen on the GPU, src/cga/
# migrants.c): glevo cga --problem camel, 1 island of 1024x1024 and 2 of 1024x512 (both ranks
# on the one GPU), 300 generations, K = 50, on the compute backend (migrants 4, 32, 33) and the
# fragment backend (4, 33). Migrants 4 and 32 take the GPU selection; 33 is above its cap
# (GLEVO_CGA_MAX_CANDIDATES) and takes the host's path (whole fitness read back), the
# before-picture in the same build. Goal: migration share < 5 % at K = 50. Prints a table;
# $OUT/migration.csv (with the renderer) and $OUT/migration.jsonl. Under a minute.
#   . .gl/env.sh && scripts/device/migration.sh [BUILD]
# MIGRATION_SMOKE=1: 128x128 / 128x64 and 100 generations, a dry run on llvmpipe.
set -uo pipefail
. "$(dirname "$0")/mpi-setup.sh"
side=1024 gens=300
[ "${MIGRATION_SMOKE:-0}" = 1 ] && side=128 gens=100
csv="$out/migration.csv" jsonl="$out/migration.jsonl"
: > "$jsonl"; : > "$out/migration_stderr.txt"
echo "backend,islands,grid,generations,migrate_every,migrants,path,seconds,migration_seconds,migration_share,ms_per_migration,best_fitness,renderer" > "$csv"

row_py=$(mktemp /tmp/migration-row-XXXXXX.py)
trap 'rm -f "$row_py"' EXIT
cat > "$row_py" <<'PY'
import json, sys
d = json.loads(sys.stdin.read()); isl = d["islands"]
migrations = max(isl.get("migrations", 0), 1)
print(",".join(str(v) for v in [
    d["backend"], isl["count"], f'{d["grid_width"]}x{d["grid_height"]}', d["generations"],
    isl["migrate_every"], isl["migrants"], sys.argv[1], f'{d["seconds"]:.4f}',
    f'{isl["migration_seconds"]:.4f}', f'{isl["migration_share"]:.4f}',
    f'{1000 * isl["migration_seconds"] / migrations:.3f}', d["best_fitness"],
    '"' + d["renderer"] + '"']))
PY

# run BACKEND N GRID MIGRANTS: one mpirun job, its JSON kept, a CSV row.
run() {
  local backend=$1 n=$2 grid=$3 migrants=$4 path=gpu line
  [ "$migrants" -gt 32 ] && path=host
  line=$(timeout 60 "$mpirun" $root --oversubscribe --quiet --bind-to none -np "$n" \
           "$g" cga --problem camel --backend "$backend" --grid "$grid" --generations "$gens" \
           --islands --migrants "$migrants" --migrate-every 50 --sync-timeout 30 --json --quiet \
           2>>"$out/migration_stderr.txt")
  if [ -z "$line" ]; then
    echo "$backend,$n,$grid,$gens,50,$migrants,$path,FAILED,,,,," >> "$csv"
    return
  fi
  echo "$line" >> "$jsonl"
  python3 "$row_py" "$path" <<< "$line" >> "$csv"
}

for job in compute:4 compute:32 compute:33 fragment:4 fragment:33; do
  run "${job%:*}" 1 "${side}x${side}" "${job#*:}"
  run "${job%:*}" 2 "${side}x$((side / 2))" "${job#*:}"
done
cut -d, -f1-12 "$csv"   # (no `column` on the GPU machine)
echo "renderer: $(tail -n 1 "$csv" | awk -F'"' '{print $2}')"
