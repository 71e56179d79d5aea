#!/bin/bash
# Population sweeps for the DSMGA-II bench (H100, 2026-11-23), one process per cell
# in parallel: glevo dsmga --sweep, smallest population with 10 consecutive solved runs (seeds
# 1001..1010), doubling from 8 then bisection to within 10%, lossless model building on the
# GPU (evaluates exactly as the CPU engine). Then a 3-generation BuildDSM timing at the old
# fixed population 400, ftrap 600 (CPU engine and GPU). Usage: run_sweeps.sh GLEVO OUTDIR
G=$1; O=$2; T=${SWEEP_TIMEOUT:-200}
cells=${CELLS:-"trap:120 trap:300 trap:600 ftrap:120 ftrap:300 ftrap:600 cyctrap:100 cyctrap:400 cyctrap:600 spin:100"}
for c in $cells; do
  p=${c%%:*}; l=${c##*:}
  ( s=$(date +%s.%N)
    timeout $T $G dsmga --problem $p --ell $l --pop 8 --sweep --runs 10 --seed 1001 --json --quiet > /tmp/sw_${p}_${l}.json 2>/tmp/sw_${p}_${l}.err
    rc=$?; e=$(date +%s.%N)
    echo "$p $l rc=$rc secs=$(awk "BEGIN{print $e - $s}") $(cat /tmp/sw_${p}_${l}.json)" ) >> $O/sweeps.txt &
done
wait
for b in cpu fragment; do
  timeout 100 $G dsmga --problem ftrap --ell 600 --pop 400 --seed 1 --max-gens 3 --backend $b --json --profile >> $O/builddsm_pop400.txt 2>&1
done
