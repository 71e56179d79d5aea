#!/bin/bash
# Full GPop/s surface, both function sets (H100, 2026-11-23).
B=build-gpu-gp
timeout 590 $B/glevo bench gp --sets both --runs 3 --budget 1 --cpu-limit 3e9 --out $OUT/gp > $OUT/bench_gp.log 2>&1
echo "rc $?" >> $OUT/bench_gp.log
