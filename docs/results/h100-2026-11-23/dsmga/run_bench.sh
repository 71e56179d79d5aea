#!/bin/bash
# The timed DSMGA-II bench of 2026-11-23 on the H100 (after the DSM's log twin
# made GPU and CPU DSMs equal), one process at a time (nothing else running): the cells of
# the built-in sweep table, 10 GPU runs each, the first 3 seeds also on the CPU engine.
# Usage: run_bench.sh GLEVO OUTDIR
G=$1; O=$2
timeout 150 $G bench dsmga --problems trap,ftrap --ells 120,300,600 --table-only --runs 10 --cpu-runs 3 --out $O --name dsmga_trap_ftrap
timeout 120 $G bench dsmga --problems cyctrap,spin --ells 100,400,600 --table-only --runs 10 --cpu-runs 3 --out $O --name dsmga_cyctrap_spin
