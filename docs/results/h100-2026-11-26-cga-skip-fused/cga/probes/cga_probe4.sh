#!/bin/bash
g=.dev/X/glevo
export LD_LIBRARY_PATH=$PWD/.dev/X/lib:${LD_LIBRARY_PATH:-}
one() { local l=$1 e=$2 grid=$3 m=$4; shift 4; local best=9
  for r in 1 2 3; do
    s=$(env $e $g cga --grid $grid --generations 1000 --mutation $m --report-every 1000 --backend compute --json --quiet "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["seconds"])')
    best=$(python3 -c "print(min($best, ${s:-9}))")
  done
  echo "$l,$grid,$m,$*,$best"; }
for grid in 1000x1000 1200x1200 1400x1400 2000x2000; do
  one kernel GLEVO_CGA_FUSED=1 $grid skip --problem camel
  one fitness GLEVO_CGA_FUSED=fitness $grid skip --problem camel
  one kernel GLEVO_CGA_FUSED=1 $grid per-bit --problem camel
done
one kernel GLEVO_CGA_FUSED=1 1000x1000 skip --problem sphere --dim 24
one fitness GLEVO_CGA_FUSED=fitness 1000x1000 skip --problem sphere --dim 24
one kernel GLEVO_CGA_FUSED=1 2000x2000 skip --problem sphere --dim 24
one fitness GLEVO_CGA_FUSED=fitness 2000x2000 skip --problem sphere --dim 24
