#!/usr/bin/env bash
# The cGA's temporal blocking on the GPU machine (issue 25): `scan` times tiles x depths per
# grid (one warm run each) to choose the rule of src/cga/block.c; `final` times the rule, the
# one-generation path (--block-depth 0) and the JAX peer (best of three warm runs each), checks
# that blocked and one-generation runs end bit for bit alike (checkpoints compared), and draws
# `glevo bench cga --peer` (glevo beside the JAX lines of this run) under $OUT/peer.
#   . .gl/env.sh && scripts/device/cga-block.sh GLEVO scan|final|bitwise [PEERS]
# (`bitwise`: the bit-for-bit check alone)
set -uo pipefail
glevo=$1 mode=$2 peers=${3:-.peers}
out=${OUT:-out}; mkdir -p "$out"
csv="$out/cga_block_$mode.csv"
echo "grid,generations,mutation,report_every,tile,depth,seconds,best,renderer" > "$csv"

# one run: grid gens mutation report tile depth [extra...] -> a CSV row (seconds "refused" on exit 2)
one() {
  local grid=$1 gens=$2 mut=$3 rep=$4 tile=$5 depth=$6; shift 6
  local args=(cga --problem camel --grid "$grid" --generations "$gens" --mutation "$mut"
              --report-every "$rep" --backend compute --json --quiet "$@")
  [ "$tile" != auto ] && args+=(--block-tile "$tile")
  [ "$depth" != auto ] && args+=(--block-depth "$depth")
  local json
  if json=$("$glevo" "${args[@]}" 2>"$out/err.txt"); then
    echo "$json" | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"$grid,$gens,$mut,$rep,$tile,$depth,{d['seconds']:.6f},{d['best_fitness']},{d['renderer']}\")"
  else
    echo "$grid,$gens,$mut,$rep,$tile,$depth,refused,$(head -c 150 "$out/err.txt" | tr ',\n' ';;'),"
  fi
}
best3() { for r in 1 2 3; do one "$@"; done; }

# A user fitness file (not `precise`) -> $out/user.glsl.
user_file() {
  printf 'vec4 problem_init() { return vec4(0.0); }\nvec4 problem_step(vec4 acc, int j, float x) { return acc + vec4(x * x - cos(6.0 * x)); }\nfloat problem_finish(vec4 acc, int dim) { return acc.x; }\n' > "$out/user.glsl"
}

# Bit for bit on this GPU: blocked (the rule, and depth 4 on 4x2 tiles) against one generation
# a dispatch, checkpoints of the end state compared byte for byte -> $out/bitwise.txt. The user
# file's problem_finish is not `precise`: its stored fitness may differ in the last bits.
bitwise() {
  user_file
  for cfg in "camel 64x64 moore per-bit" "camel 100x100 von-neumann skip" "ackley 130x66 moore5 per-bit" \
             "rastrigin 316x316 moore skip" "schwefel 40x30 moore skip" "user 100x100 moore per-bit"; do
    set -- $cfg
    problem=(--problem $1); [ $1 = user ] && problem=(--fitness "$out/user.glsl" --lower -3 --upper 3)
    for depth in auto 4 0; do
      rm -f "$out/ck_$depth.glevo"
      extra=(); [ $depth != auto ] && extra=(--block-depth $depth)
      [ $depth = 4 ] && extra+=(--block-tile 4x2)
      "$glevo" cga "${problem[@]}" --grid $2 --neighbourhood $3 --mutation $4 --generations 300 \
        --report-every 37 --backend compute --quiet --checkpoint "$out/ck_$depth.glevo" "${extra[@]}" \
        2>>"$out/err.txt" > /dev/null
    done
    for depth in auto 4; do
      # past the header's creation time, short of the checksum that covers it
      if [ ! -s "$out/ck_$depth.glevo" ]; then echo "REFUSED: $cfg depth $depth"
      elif cmp -s <(tail -c +161 "$out/ck_$depth.glevo" | head -c -4) <(tail -c +161 "$out/ck_0.glevo" | head -c -4); then
        echo "SAME: $cfg depth $depth"; else echo "DIFFERS: $cfg depth $depth"; fi
    done
  done > "$out/bitwise.txt"
  rm -f "$out"/ck_*.glevo
}

if [ "$mode" = bitwise ]; then
  bitwise
elif [ "$mode" = scan ]; then
  "$glevo" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null # shader cache
  for d in 4 6 8 10; do for t in 4x4 8x4 8x8 16x8; do one 64x64 200 per-bit 200 $t $d; done; done >> "$csv"
  for d in 2 4 6; do for t in 8x4 8x8 16x8 16x16; do one 100x100 1000 per-bit 1000 $t $d; done; done >> "$csv"
  for d in 1 2 3; do for t in 16x8 16x16 32x16; do one 316x316 1000 per-bit 1000 $t $d; done; done >> "$csv"
  for m in per-bit skip; do for d in 1 2; do for t in 16x16 32x16 32x32; do
    one 1000x1000 1000 $m 1000 $t $d; done; done; done >> "$csv"
  for g in "64x64 200" "100x100 1000" "316x316 1000" "1000x1000 1000"; do
    set -- $g; one $1 $2 per-bit $2 auto 0; one $1 $2 per-bit $2 auto auto; done >> "$csv"
  one 1000x1000 1000 skip 1000 auto 0 >> "$csv"
  for g in 64x64 316x316 1000x1000; do
    "$glevo" cga --grid $g --generations 200 --report-every 200 --backend compute --profile --quiet \
      > /dev/null 2> "$out/profile_$g.txt"
    "$glevo" cga --grid $g --generations 200 --report-every 200 --backend compute --block-depth 0 \
      --profile --quiet > /dev/null 2> "$out/profile_one_$g.txt"
  done
else
  "$glevo" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null
  user_file
  for depth in auto 0; do
    best3 64x64 200 per-bit 25 auto $depth; best3 64x64 200 per-bit 200 auto $depth
    best3 100x100 1000 per-bit 1000 auto $depth; best3 316x316 1000 per-bit 1000 auto $depth
    best3 1000x1000 1000 per-bit 1000 auto $depth; best3 1000x1000 1000 skip 1000 auto $depth
    best3 64x64 1000 per-bit 1000 auto $depth
    for nb in von-neumann moore5; do best3 100x100 1000 per-bit 1000 auto $depth --neighbourhood $nb; done
    best3 100x100 1000 skip 1000 auto $depth
    best3 100x100 1000 per-bit 1000 auto $depth --fitness "$out/user.glsl" --lower -3 --upper 3
  done >> "$csv"
  for t in "8x4 2" "8x4 3" "16x8 1" "8x8 3"; do set -- $t; best3 64x64 200 per-bit 200 $1 $2; best3 100x100 1000 per-bit 1000 $1 $2; done >> "$csv"
  bitwise
  timeout 240 python3 "$peers/cga_jax.py" 64 64 200 100 100 1000 316 316 1000 1000 1000 1000 > "$out/jax.jsonl" 2>"$out/jax_err.txt"
  # the picture: glevo beside the peer's lines, timed again in this run
  "$glevo" bench cga --peer "$out/jax.jsonl" --out "$out/peer" --backend compute --quiet
fi
cat "$csv"; cat "$out/jax.jsonl" "$out/bitwise.txt" "$out"/profile_*.txt 2>/dev/null
