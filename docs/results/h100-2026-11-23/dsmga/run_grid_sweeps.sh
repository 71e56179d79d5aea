#!/bin/bash
# Population sizing for the cells the first sweep could not finish (ftrap 600) or did not
# have (l = 1000), as a grid instead of a bisection so that it runs in parallel: every
# population of the grid runs seeds 1001..1010 (lossless, GPU) until one fails, all at once.
# The sweep's population is the smallest of the grid that solves all 10 with every larger
# one also solving (within the grid's ~10% steps, what the bisection would find).
# A population whose runs did not end by the deadline (GRID_TIMEOUT seconds) is marked 2,
# unknown, and decides nothing.
# Usage: run_grid_sweeps.sh GLEVO OUTDIR   (writes OUTDIR/grid_sweeps.txt, OUTDIR/grid_pops.txt)
G=$1; O=$2; end=$(($(date +%s) + ${GRID_TIMEOUT:-240}))
grid() { # problem ell pops...
  local p=$1 l=$2; shift 2
  for n in "$@"; do
    ( ok=1; sum=0
      for s in $(seq 1001 1010); do
        left=$((end - $(date +%s)))
        [ $left -gt 0 ] || { ok=2; break; }
        j=$(timeout $left $G dsmga --problem $p --ell $l --pop $n --seed $s --json --quiet 2>/dev/null)
        case $j in *'"solved":true'*) ;; *) ok=$(( $(date +%s) >= end ? 2 : 0 )); break;; esac
        sum=$((sum + $(echo "$j" | sed 's/.*"nfe":\([0-9]*\).*/\1/')))
      done
      echo "$p $l $n $ok $((ok == 1 ? sum / 10 : 0))" >> $O/grid_sweeps.txt ) &
  done
}
grid ftrap 600 144 160 176 192 208 224 256 288 320
grid trap 1000 96 112 128 144 160 192
grid cyctrap 1000 224 256 288 320 384 448
wait
sort -k1,1 -k2,2n -k3,3nr $O/grid_sweeps.txt | awk '
  $1" "$2 != cell { cell = $1" "$2; alive = 1 }
  $4 == 2 { next }
  { if (alive && $4 == 1) best[cell] = $3" "$5; else alive = 0 }
  END { for (c in best) print c, best[c] }' | sort > $O/grid_pops.txt
