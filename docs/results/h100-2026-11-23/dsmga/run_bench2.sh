#!/bin/bash
# The new cells of the DSMGA-II bench (H100, 2026-11-23), each at its grid
# sweep's population (a line "problem ell pop mean_nfe" of grid_pops.txt), one process at a
# time. Usage: run_bench2.sh GLEVO GRID_POPS OUTDIR PROBLEM...
G=$1; P=$2; O=$3; shift 3
for want in "$@"; do
  while read -r p l n nfe; do
    [ "$p" = "$want" ] || continue
    timeout ${CELL_TIMEOUT:-200} $G bench dsmga --problems $p --ells $l --pop $n --runs 10 --cpu-runs 3 --out $O --name dsmga_${p}${l}_pop$n
  done < "$P"
done
