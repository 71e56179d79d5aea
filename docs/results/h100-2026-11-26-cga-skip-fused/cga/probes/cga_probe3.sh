#!/bin/bash
# exploratory: the fold's four loads; skip scored in the kernel (=1) or by the fitness dispatch (=fitness), best of 3
g=.dev/X/glevo
export LD_LIBRARY_PATH=$PWD/.dev/X/lib:${LD_LIBRARY_PATH:-}
one() { local l=$1 e=$2 grid=$3 m=$4; shift 4; local best=9
  for r in 1 2 3; do
    s=$(env $e $g cga --grid $grid --generations 1000 --mutation $m --report-every 1000 --backend compute --json --quiet "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["seconds"])')
    best=$(python3 -c "print(min($best, ${s:-9}))")
  done
  echo "$l,$grid,$m,$*,$best"; }
for cfg in "1000x1000|--problem camel" "1000x1000|--problem camel --neighbourhood von-neumann" "1000x1000|--problem camel --neighbourhood moore5" \
           "1000x1000|--problem rastrigin --dim 10" "1000x1000|--problem sphere --dim 24" "1000x1000|--fitness data/examples/fitness.glsl --lower -3 --upper 3" \
           "700x700|--problem camel" "2000x2000|--problem camel" "1400x1400|--problem camel"; do
  grid=${cfg%%|*}; opts=${cfg#*|}
  one kernel GLEVO_CGA_FUSED=1 $grid skip $opts
  one fitness GLEVO_CGA_FUSED=fitness $grid skip $opts
  one kernel GLEVO_CGA_FUSED=1 $grid per-bit $opts
done
