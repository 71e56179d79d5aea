#!/usr/bin/env bash
# GPU machine: the cellular GA's two mutation samplers, same problem and sizes, with profiles.
set -uo pipefail
glevo=$1/glevo; out=${OUT:-out}; mkdir -p "$out"
for grid in 256x256 1024x1024; do
  for m in per-bit skip; do
    echo "== $grid $m"
    "$glevo" cga --problem camel --grid $grid --generations 1000 --mutation $m --profile --json --quiet 2>&1
  done
done | tee "$out/cga_mutation.txt"
