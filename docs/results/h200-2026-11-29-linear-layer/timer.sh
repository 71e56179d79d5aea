#!/bin/bash
# timer build: the layer's phases at the four cells (stderr LAYER lines)
out=${OUT:-out}; mkdir -p "$out/data"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
for c in 1000:100 10000:1000 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for s in 1 1 2 3; do
    .prof/glevo-timer gp --data "$out/data/sr_$cases.csv" --pop $pop --generations 50 --max-size 64 --seed $s --quiet --json 2>&1 >/dev/null | sed "s/^/$c seed $s /" >> "$out/timer.txt"
  done
done
nproc >> "$out/timer.txt"
rm -rf "$out/data"
