#!/usr/bin/env bash
# The cGA's persistent blocked path on the GPU machine (issue 25: many blocks a dispatch, a
# grid barrier between them, one work-group a multiprocessor): bit-for-bit checks against one
# generation a dispatch (test_cga_block with several groups, and end-state checkpoints of CLI
# runs), a scan of tiles x depths per grid (one warm run each), the current rule without it,
# and the JAX cGA (best of three warm runs). Writes $OUT/persist.csv, bitwise.txt, jax.jsonl.
#   . .gl/env.sh && scripts/device/cga-persist.sh GLEVO TEST_CGA_BLOCK [PEERS]
set -uo pipefail
glevo=$1 test=$2 peers=${3:-.peers}
out=${OUT:-out}; mkdir -p "$out"
csv="$out/persist.csv"
echo "grid,generations,mutation,workers,tile,depth,seconds,best" > "$csv"

GLEVO_TEST_CGA_WORKERS=999 GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$glevo" timeout 200 "$test" \
  > "$out/test_cga_block_workers.txt" 2>&1
echo "test_cga_block with the GPU's groups: exit $?" > "$out/bitwise.txt"

# one run: workers grid gens mutation tile depth -> a CSV row ("refused" on failure)
one() {
  local w=$1 grid=$2 gens=$3 mut=$4 tile=$5 depth=$6 json
  local args=(cga --problem camel --grid "$grid" --generations "$gens" --mutation "$mut"
              --report-every "$gens" --backend compute --json --quiet)
  [ "$tile" != auto ] && args+=(--block-tile "$tile")
  [ "$depth" != auto ] && args+=(--block-depth "$depth")
  if json=$(GLEVO_CGA_BLOCK_WORKERS=$w timeout 20 "$glevo" "${args[@]}" 2>"$out/err.txt"); then
    echo "$json" | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"$grid,$gens,$mut,$w,$tile,$depth,{d['seconds']:.6f},{d['best_fitness']}\")"
  else
    echo "$grid,$gens,$mut,$w,$tile,$depth,refused,$(head -c 120 "$out/err.txt" | tr ',\n' ';;')"
  fi
}

"$glevo" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null
for g in "64x64 200 per-bit" "100x100 1000 per-bit" "316x316 1000 per-bit" "1000x1000 1000 per-bit" \
         "1000x1000 1000 skip"; do
  set -- $g
  for r in 1 2 3; do one 0 $1 $2 $3 auto auto; one 0 $1 $2 $3 auto 0; done
  for t in 8x4 16x8 16x16 32x16 32x32; do for d in 1 2 3 4; do one 999 $1 $2 $3 $t $d; done; done
done >> "$csv"

# bit for bit: persistent runs (the GPU's groups) against one generation a dispatch, end-state
# checkpoints compared byte for byte (past the header's creation time, short of the checksum)
printf 'vec4 problem_init() { return vec4(0.0); }\nvec4 problem_step(vec4 acc, int j, float x) { precise vec4 r = acc + vec4(x * x - cos(6.0 * x)); return r; }\nfloat problem_finish(vec4 acc, int dim) { return acc.x; }\n' > "$out/user.glsl"
for cfg in "camel 64x64 moore per-bit 8x4 3" "camel 100x100 von-neumann skip 16x8 2" \
           "ackley 130x66 moore5 per-bit 16x8 2" "rastrigin 316x316 moore skip 16x16 1" \
           "camel 1000x1000 moore per-bit 32x16 2" "user 100x100 moore per-bit 16x8 3"; do
  set -- $cfg
  problem=(--problem $1); [ $1 = user ] && problem=(--fitness "$out/user.glsl" --lower -3 --upper 3)
  for w in 999 0; do
    rm -f "$out/ck_$w.glevo"
    extra=(--block-tile $5 --block-depth $6); [ $w = 0 ] && extra=(--block-depth 0)
    GLEVO_CGA_BLOCK_WORKERS=$w timeout 60 "$glevo" cga "${problem[@]}" --grid $2 --neighbourhood $3 \
      --mutation $4 --generations 300 --report-every 137 --backend compute --quiet \
      --checkpoint "$out/ck_$w.glevo" "${extra[@]}" 2>>"$out/err.txt" > /dev/null
  done
  if [ ! -s "$out/ck_999.glevo" ]; then echo "REFUSED: $cfg"
  elif cmp -s <(tail -c +161 "$out/ck_999.glevo" | head -c -4) <(tail -c +161 "$out/ck_0.glevo" | head -c -4); then
    echo "SAME: $cfg"; else echo "DIFFERS: $cfg"; fi
done >> "$out/bitwise.txt"
rm -f "$out"/ck_*.glevo
timeout 200 python3 "$peers/cga_jax.py" 64 64 200 100 100 1000 316 316 1000 1000 1000 1000 > "$out/jax.jsonl" 2>"$out/jax_err.txt"
cat "$out/bitwise.txt" "$out/jax.jsonl"
