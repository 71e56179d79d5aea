#!/bin/bash
# The timed DSMGA-II bench of 2026-11-23 on the H100, one process at a time (nothing else
# running). Usage: run_bench.sh GLEVO OUTDIR
G=$1; O=$2
# folded trap 600: the sweep did not finish in 190 s, so the old fixed population 400
timeout 150 $G bench dsmga --problems ftrap --ells 600 --pop 400 --runs 10 --cpu-runs 1 --out /tmp/b600 --name dsmga_ftrap600_pop400
cp /tmp/b600/dsmga_ftrap600_pop400.md /tmp/b600/dsmga_ftrap600_pop400.csv $O/
# the swept cells: 10 GPU runs each, the first 3 seeds also on the CPU engine
timeout 120 $G bench dsmga --problems trap,ftrap --ells 120,300,600 --table-only --runs 10 --cpu-runs 3 --out $O --name dsmga_trap_ftrap
timeout 80 $G bench dsmga --problems cyctrap,spin --ells 100,400,600 --table-only --runs 10 --cpu-runs 3 --out $O --name dsmga_cyctrap_spin
