#!/bin/bash
# H100, 2026-11-23, GP tiles: PPCU at an 8 x 8 tile for every population
# (was 8 x 4 at 25000 and 4 x 4 at 50000), then the GPU strategies' surface again.
B=build-gpu-gp; L=$OUT/log4.txt
for g in 0 32 16; do
  echo "== group $g (0: default)" >> $L
  timeout 60 $B/glevo bench gp --sets both --pops 25000,50000 --cases 10000 --engines ppcu --runs 3 --budget 1 --group $g 2>&1 | grep -E "^## |^\| 10000 \|" >> $L
done
timeout 400 $B/glevo bench gp --sets both --no-cpu --runs 3 --budget 1 --out $OUT/gp > $OUT/bench_gp_gpu.log 2>&1
echo "rc $?" >> $OUT/bench_gp_gpu.log
